"""Russian word lists and patterns for the offline extractor.

Russian inflects nouns and adjectives, so heads are matched by stem and labels are brought to
the plural nominative ("детским клиникам" → "детские клиники") to let repeated mentions meet.
"""

from __future__ import annotations

import re

from kg.language.tokens import cases, grammemes, may_name_a_person

LANG = "ru"

_I = re.IGNORECASE


def _words(text: str) -> frozenset[str]:
    """The words, each also spelt with «е» for «ё»: lemmas come that way, text either way."""
    words = text.split()
    return frozenset(words + [w.replace("ё", "е") for w in words])


# «…, а не …» denies a phrase of its clause, it opens no clause of its own.
CLAUSE_SEPARATOR = re.compile(
    r";\s*|:\s+|,\s+(?:а(?!\s+не\b)|но|и|поэтому|потому\s+что|так\s+как|однако|хотя|зато|"
    r"причём|причем|чтобы)\b\s*",
    _I,
)

LEADING_STOPWORDS = _words(
    "наш наша наше наши их его её ее этот эта это эти все всё также тоже ещё еще уже очень "
    "там тут сами сам просто даже"
)
TRAILING_STOPWORDS = _words(
    "и в во на с со по для а или но к ко от из у о об за до что как их его её ее при без "
    "через не ни the a an"
)

PRONOUN_START = re.compile(
    r"(?:они|им|их|он|она|ему|ей|для\s+них|у\s+них|все\s+они|многие\s+из\s+них|"
    r"большинство\s+из\s+них)(?![\w-])",
    _I,
)

# ----------------------------------------------------------------------------- markets
MARKET_NAME = (
    r"B2B2C|B2B|B2C|B2G|D2C|SMB|МСБ|enterprise|малый\s+(?:и\s+средний\s+)?бизнес|"
    r"средний\s+бизнес|корпоративн\w+\s+(?:сегмент|рынок|клиент\w*)|частн\w+\s+клиент\w*"
)
MARKET_PATTERNS = (
    re.compile(
        r"(?:наш|целевой|основной)(?:\s+(?:целевой|основной))?\s+рынок\s*"
        r"(?:—|-|:|это|теперь\s*—)\s*(?:теперь\s+|по-прежнему\s+)?"
        rf"(?P<m>{MARKET_NAME}|[а-яё-]+(?:\s+[а-яё-]+){{0,2}})",
        _I,
    ),
    re.compile(
        r"(?:переходим|перейд[её]м|переходить|уходим|уйд[её]м|выходим|выйд[её]м|"
        r"разворачиваемся|разверн[её]мся|переключаемся|фокусируемся|сосредоточимся|"
        r"переориентируемся|ид[её]м|пивотимся|перестраиваемся)\s+(?:на|в)\s+"
        rf"(?P<m>{MARKET_NAME})",
        _I,
    ),
    re.compile(
        r"(?:работаем|продаём|продаем|ориентируемся|играем|сфокусированы)\s+(?:на|в)\s+"
        rf"(?P<m>{MARKET_NAME})(?:[-\s]рын\w*|[-\s]сегмент\w*)?",
        _I,
    ),
    re.compile(rf"(?:фокус|акцент)\s+(?:—|-|:|на)\s+(?P<m>{MARKET_NAME})", _I),
)
MARKET_TAIL_STOP = _words("для и или с по на в теперь пока только сначала")

# ----------------------------------------------------------------------------- insights
CRITERIA: tuple[tuple[str, str], ...] = (
    (r"(?:цен(?:а|ы|у|е|ой)|стоимост\w*|прайс\w*)", "price"),
    (r"(?:скорост\w*)", "speed"),
    (r"(?:простот\w*|удобств\w*)", "ease of use"),
    (r"(?:интеграци\w*)", "integration"),
    (r"(?:поддержк\w*)", "support"),
    (r"(?:безопасност\w*)", "security"),
    (r"(?:над[её]жност\w*)", "reliability"),
    (r"(?:дизайн\w*|интерфейс\w*)", "design"),
)
INSIGHT_GAP = r"(?:\s+(?!не\b)[\w-]+){0,3}?"
INSIGHT_NEGATIVE_AFTER = re.compile(
    r"\s*(?:—\s*)?(?P<p>не\s+(?:так\s+|очень\s+|особо\s+|сильно\s+|слишком\s+|самое\s+)?"
    r"(?:важн\w*|главн\w*(?:\s+(?:фактор|критерий))?|критичн\w*|решающ\w*(?:\s+фактор)?|"
    r"основн\w*(?:\s+фактор)?|имеет\s+(?:особого\s+|большого\s+|никакого\s+)?значения|"
    r"играет\s+(?:особой\s+|большой\s+|никакой\s+|решающей\s+)?роли|принципиальн\w*|проблема|"
    r"волнует|интересует)|неважн\w*|второстепенн\w*|не\s+на\s+первом\s+месте|без\s+разницы)",
    _I,
)
INSIGHT_POSITIVE_AFTER = re.compile(
    r"\s*(?:—|-|:|это)?\s*(?P<p>(?:самый\s+)?(?:главный|основной|решающий|ключевой|важнейший|"
    r"первый|определяющий|важный)\s+(?:фактор|критерий|аргумент|момент|параметр|вопрос)|"
    r"самое\s+главное|(?:очень\s+|крайне\s+|особенно\s+)?важн(?:а|о|ее\s+всего|ее)\b|"
    r"(?:имеет|играет)\s+(?:большое\s+|решающее\s+|главную\s+|ключевую\s+|огромное\s+|"
    r"важную\s+)?(?:значение|роль)|на\s+первом\s+месте|решает(?:\s+всё)?)",
    _I,
)
# A study's finding: what a share of the people observed did, said or felt ("Большинство
# участников пропустили обучение", "3 из 5 попросили отмену"); see lexicon_en.
FINDING_SHARE = re.compile(
    r"(?:все|большинство|многие|некоторые|несколько|немногие|половина|ни\s+один\s+из"
    r"|\d+\s+из\s+\d+)\s+",
    _I,
)
FINDING_NOT_VERB = _words("кто который которые которых из в на с для от по и или чем как")
FINDING_PLURAL_HEAD = re.compile(r"\w+")  # the share word governs the noun's case and number
# After a comma, a list that goes on: one or two words, then another comma or the last item.
LIST_GOES_ON = re.compile(
    r"\s*[\w-]+(?:\s+[\w-]+)?(?:,\s*|\s+)(?:и|или|либо)\b|\s*(?:и|или|либо)\s", _I
)
INSIGHT_POSITIVE_BEFORE = re.compile(
    r"(?P<p>главное\s*(?:—|-|:|это)|смотрят\s+(?:в\s+первую\s+очередь\s+|прежде\s+всего\s+|"
    r"только\s+|сначала\s+)?на|важнее\s+всего\s*(?:—|-)?)\s+$",
    _I,
)
INSIGHT_NEGATIVE_BEFORE = re.compile(
    r"(?P<p>не\s+смотрят\s+на|не\s+волнует|не\s+важн\w+)\s+$",
    _I,
)

# ----------------------------------------------------------------------------- segments
# A segment's head is a person noun or a kind of organisation. Person nouns are general role
# nouns (SEGMENT_HEADS) and agent nouns told by their suffix (AGENT_NOUNS: -тель, -ник, -щик,
# -чик, -ист, -ер, -тор, -арь, -ент, -ант, -лог, -граф), less common words with those endings
# that name things (NOT_PERSON_STEMS). Labels are plural nominative.
_HARD = r"(?:а|у|ом|е|ы|ов|ам|ами|ах)?"
_SOFT = r"(?:ь|я|ю|ем|е|и|ей|ям|ями|ях)"
_VELAR = r"(?:а|у|ом|е|и|ов|ам|ами|ах)?"
_FEM_A = r"(?:а|ы|и|у|е|ой|ей|ам|ами|ах)?"
_FEM_YA = r"(?:я|и|ю|ей|е|ям|ями|ях)"
_ADJ = r"(?:ий|ый|ие|ые|их|ых|им|ым|ими|ыми|его|ого|ему|ому|ая|ей|ой|ую)"
# (pattern, plural nominative label, needs a modifier)
SEGMENT_HEADS: tuple[tuple[str, str, bool], ...] = (
    # people whose noun has no agent suffix
    (rf"владел(?:ец|ьц(?:а|у|ем|е|ы|ев|ам|ами|ах)|иц{_FEM_A})", "владельцы", False),
    (rf"продав(?:ец|ц(?:а|у|ом|е|ы|ов|ам|ами|ах)|щиц{_FEM_A})", "продавцы", False),
    (r"торгов(?:ец|ц(?:а|у|ем|е|ы|ев|ам|ами|ах))", "торговцы", False),
    (rf"управляющ{_ADJ}", "управляющие", False),
    (rf"заведующ{_ADJ}", "заведующие", False),
    (rf"самозанят{_ADJ}", "самозанятые", False),
    (r"люд(?:и|ей|ям|ьми|ях)", "люди", False),
    (r"дет(?:и|ей|ям|ьми|ях)", "дети", False),
    (rf"гост{_SOFT}", "гости", False),
    (r"врач(?:а|у|ом|е|и|ей|ам|ами|ах)?", "врачи", False),
    (rf"повар{_HARD}", "повара", False),
    (rf"кассир{_HARD}", "кассиры", False),
    (rf"эксперт{_HARD}", "эксперты", False),
    (rf"аналитик{_VELAR}", "аналитики", False),
    (r"бариста", "бариста", False),
    (r"персонал(?:а|у|ом|е)?", "персонал", False),
    (rf"мам{_FEM_A}", "мамы", False),
    (rf"сотрудниц{_FEM_A}", "сотрудники", False),
    (rf"работниц{_FEM_A}", "работники", False),
    (rf"участниц{_FEM_A}", "участники", False),
    (rf"помощниц{_FEM_A}", "помощники", False),
    (rf"учениц{_FEM_A}", "ученики", False),
    (rf"школьниц{_FEM_A}", "школьники", False),
    (rf"клиентк{_FEM_A}", "клиенты", False),
    (rf"студентк{_FEM_A}", "студенты", False),
    (rf"пациентк{_FEM_A}", "пациенты", False),
    (rf"пенсионерк{_FEM_A}", "пенсионеры", False),
    (rf"новичок|новичк{_VELAR}", "новички", False),
    # organisations; the generic ones need a word that says which
    (r"компани(?:я|и|ю|ей|ям|ями|ях|й)", "компании", True),
    (rf"фирм{_FEM_A}", "фирмы", True),
    (r"организаци(?:я|и|ю|ей|ям|ями|ях|й)", "организации", True),
    (r"предприяти(?:е|я|ю|ем|и|й|ям|ями|ях)", "предприятия", True),
    (r"агентств(?:о|а|у|ом|е|ам|ами|ах)?", "агентства", True),
    (rf"команд{_FEM_A}", "команды", True),
    (rf"отдел{_HARD}", "отделы", True),
    (rf"стартап{_HARD}", "стартапы", False),
    (rf"магазин{_HARD}", "магазины", False),
    (rf"супермаркет{_HARD}", "супермаркеты", False),
    (rf"ресторан{_HARD}", "рестораны", False),
    (r"кафе", "кафе", False),
    (rf"кофейн{_FEM_YA}|кофеен", "кофейни", False),
    (rf"бар{_HARD}", "бары", False),
    (rf"салон{_HARD}", "салоны", False),
    (rf"клиник{_FEM_A}", "клиники", False),
    (rf"больниц{_FEM_A}", "больницы", False),
    (rf"аптек{_FEM_A}", "аптеки", False),
    (rf"школ{_FEM_A}", "школы", False),
    (rf"университет{_HARD}", "университеты", False),
    (rf"вуз{_HARD}", "вузы", False),
    (r"колледж(?:а|у|ем|е|и|ей|ам|ами|ах)?", "колледжи", False),
    (rf"гостиниц{_FEM_A}", "гостиницы", False),
    (rf"отел{_SOFT}", "отели", False),
    (rf"пекарн{_FEM_YA}|пекарен", "пекарни", False),
    (r"студи(?:я|и|ю|ей|ям|ями|ях|й)", "студии", False),
    (rf"клуб{_HARD}", "клубы", False),
    (rf"спортзал{_HARD}", "спортзалы", False),
    (r"ателье", "ателье", False),
    (rf"мастерск{_ADJ}", "мастерские", False),
    (rf"автосервис{_HARD}", "автосервисы", False),
    (rf"завод{_HARD}", "заводы", False),
    (rf"фабрик{_FEM_A}", "фабрики", False),
    (rf"ферм{_FEM_A}", "фермы", False),
)
# (stem, case endings, plural ending): agent nouns by suffix.
AGENT_NOUNS: tuple[tuple[str, str, str], ...] = (
    (r"[а-яё]+[аеиюя]тел", _SOFT, "и"),  # водитель, преподаватель
    (r"[а-яё]+[аеиюя]тел", rf"ьниц{_FEM_A}", "и"),  # учительница
    (r"[а-яё]{2,}[щчн]ик", _VELAR, "и"),  # заказчик, сотрудник
    (r"[а-яё]{3,}ист", _HARD, "ы"),  # специалист
    (r"[а-яё]{3,}[её]р", _HARD, "ы"),  # менеджер, партнёр
    (r"[а-яё]{2,}(?:тор|сор|зор)", _HARD, "ы"),  # автор, спонсор
    (r"[а-яё]{3,}ар", r"(?:ь|я|ю|ем|и|ей|ям|ями|ях)", "и"),  # секретарь
    (r"[а-яё]{2,}(?<!м)(?:ент|ант)", _HARD, "ы"),  # студент, консультант
    (r"[а-яё]{3,}лог", _VELAR, "и"),  # маркетолог, психолог
    (r"[а-яё]{3,}граф", _HARD, "ы"),  # фотограф
)
# Plurals in -а and -я: "мастера", "директора", "учителя".
IRREGULAR_PLURALS = {
    "мастер": "мастера",
    "директор": "директора",
    "доктор": "доктора",
    "профессор": "профессора",
    "учител": "учителя",
}
# Words with an agent suffix that name things (software tools among them), words such as
# "например", and the verb forms that look like them. "конкурент" is a node type of its own.
NOT_PERSON_STEMS = _words(
    "двигател показател выключател переключател указател носител обогревател предохранител "
    "усилител заменител наполнител очистител распылител ограничител разделител определител "
    "знаменател числител множител измерител выпрямител преобразовател излучател глушител "
    "смесител нагревател охладител увлажнител осушител накопител обозревател считывател "
    "распознавател летел метел "
    "понедельник вторник праздник справочник учебник дневник ежедневник чайник источник "
    "сборник памятник ценник задачник будильник холодильник светильник кипятильник рубильник "
    "напильник умывальник паяльник подоконник угольник треугольник многоугольник "
    "прямоугольник ошейник родник субботник утренник полдник пряник сырник веник ледник "
    "рудник парник курятник цветник шиповник орешник муравейник передник приёмник приемник "
    "спутник счётчик счетчик датчик мячик пончик ключик стульчик пальчик зайчик передатчик "
    "отладчик обработчик загрузчик установщик форматировщик планировщик "
    "паник черник брусник земляник клубник электроник пикник "
    "аист свист твист "
    "компьютер пример размер номер сервер принтер мессенджер стикер браузер баннер постер "
    "характер свитер тостер роутер сканер маркер фломастер контейнер интерьер барьер бампер "
    "катер лайнер плеер тизер трейлер таймер кулер блендер миксер джемпер тендер оффер флаер "
    "кластер вечер ветер север ковер ковёр костер костёр сквер шифер фужер кавер литер чартер "
    "триллер шейкер бестселлер пейджер кондиционер контроллер степлер торшер камер манер "
    "карьер атмосфер сфер покер планер запер например буфер трекер драйвер адаптер парсер "
    "линтер форматтер рендерер маппер хендлер лаунчер инсталлятор "
    "фактор сектор вектор мотор монитор процессор компрессор калькулятор генератор индикатор "
    "трактор транзистор резистор экватор ротор статор детектор проектор сенсор курсор "
    "телевизор обзор надзор кругозор позор дозор мусор простор повтор затор экскаватор "
    "аккумулятор радиатор вентилятор коллектор реактор сепаратор идентификатор "
    "классификатор агрегатор стабилизатор конвертор контор терминатор тензор виктор нестор "
    "гектор компилятор интерпретатор транслятор эмулятор симулятор редактор анализатор "
    "валидатор итератор дескриптор деструктор инициализатор синтезатор архиватор "
    "конфигуратор конструктор коннектор "
    "календар словар январ инвентар буквар алтар фонар сухар янтар глухар пескар сафар "
    "благодар подар удар "
    "процент инцидент акцент патент контент прецедент коэффициент ингредиент градиент "
    "компонент континент эквивалент конкурент вариант талант бриллиант диктант транспарант "
    "десант сервант дезодорант квадрант грант квант "
    "каталог диалог монолог некролог аналог эпилог пролог налог залог предлог подлог бэклог "
    "параграф телеграф автограф полиграф кинематограф"
)
_NOT_PEOPLE = r"(?:" + "|".join(sorted(NOT_PERSON_STEMS, key=len, reverse=True)) + r")[а-яё]{0,4}"
SEGMENT_HEAD = re.compile(
    r"(?<![\w])(?P<prefix>[\w]+-)?"
    + rf"(?!{_NOT_PEOPLE}(?![\w-]))"
    + r"(?P<head>"
    + "|".join(f"(?:{pattern})" for pattern, _, _ in SEGMENT_HEADS)
    + "|"
    + "|".join(f"(?:{stem}{endings})" for stem, endings, _ in AGENT_NOUNS)
    + r")(?![\w-])",
    _I,
)
# Person heads that name a role inside something: the next word says whose ("владельцы
# ресторанов", "родители школьников").
ATTACHING_HEADS = _words(
    "владельцы руководители родители сотрудники работники управляющие администраторы "
    "директора основатели"
)
NOT_MODIFIERS = _words(
    "наш наша наше наши наших нашим нашими ваш ваши ваших свой свои своих своим этот эта это "
    "эти этих этим тот та те тех том такой такие таких каждый каждая каждые любой любые другой "
    "другие других весь все всех всем самый самые самых один одна одни многие многих некоторые "
    "некоторых большинство которые которых который которая которой котором сами самих их его "
    "её ее мой мои моих нашей вашей своей какой какие каких напрямую вручную вслепую втихую "
    # quantities: how many of the group, not which group
    "несколько нескольких нескольким несколькими многим многими немногие немногих"
)
ADJECTIVE_ENDING = re.compile(
    r"^(?P<stem>[а-яё-]+?)(?P<end>ыми|ими|ого|его|ому|ему|ый|ий|ой|ая|яя|ое|ее|ые|ие|ых|их|ым|им|"
    r"ую|юю)$",
    _I,
)
_SOFT_ENDINGS = frozenset({"ими", "его", "ему", "ий", "яя", "ее", "ие", "их", "им", "юю"})
_HUSHING = ("г", "к", "х", "ж", "ш", "щ", "ч")
MAX_MODIFIERS = 2
# A head after "<бизнес> из <числа>" says what the business is made of ("сеть из 12
# магазинов", "парк из 20 машин"), not who the customer is.
COMPOSITION_BEFORE = re.compile(
    r"(?<![\w-])(?:сет(?:ь|и|ью)|парк\w*|штат\w*)\s+(?:из|в|на)\s+"
    r"(?:\d[\d\s]*\+?|двух|трёх|трех|четырёх|четырех|пяти|шести|семи|восьми|девяти|десяти|"
    r"\w+надцати|\w+десяти|нескольких|десятков|сотен)\s+$",
    _I,
)
MODIFIER_JOINER = "и"
OBLIQUE_BEFORE = _words("с со про о об к от для по")
# «от имени администратора», «с правами владельца»: the rights something runs with, not a group.
NOT_SEGMENT_AFTER = _words("имени правами")
# Neuter nouns that end like adjectives ("здание", "событие").
NOUN_ENDINGS = ("ание", "ение", "яние", "ятие", "итие", "ытие", "утие")


def adjective_plural(word: str) -> str | None:
    """'новым' → 'новые', 'летним' → 'летние'; None if the word is not adjectival."""
    if word.lower().endswith(NOUN_ENDINGS):
        return None
    found = ADJECTIVE_ENDING.match(word.lower())
    if found is None or len(found["stem"]) < 3:
        return None
    stem, ending = found["stem"], found["end"]
    if ending in _SOFT_ENDINGS or stem.endswith(_HUSHING):
        return stem + "ие"
    return stem + "ые"


# ----------------------------------------------------------------------------- pains
PAIN_COMPLEMENT = re.compile(
    r"(?:жалу\w+(?:\s+на\s+то,?\s+что|\s+на|,?\s+что)?|недовольн\w+(?:\s+тем,?\s+что|,?\s+что)?|"
    r"раздража(?:ет|ют)|беси(?:т|ли)|ненавид(?:ят|ит)|устал[аи]?\s+от|"
    r"проблема\s+в\s+том,?\s+что|(?:главная|основная|самая\s+большая)\s+(?:проблема|боль)\s*"
    r"(?:—|-|:)|боль\s*(?:—|:))\s*",
    _I,
)
PAIN_VERBAL = re.compile(
    r"(?<!не\s)(?<![\w-])(?:неудобно|сложно|трудно|тяжело|непонятно|муторно|"
    r"приходится|приходилось|забыва(?:ют|ет)|забыл[аи]?|теряют|теряет|"
    r"не\s+могут|не\s+может|не\s+успева\w+|"
    r"трат(?:ят|ит)\s+(?:часы|много\s+времени|весь\s+\w+|полдня|кучу\s+времени|уйму\s+времени))"
    r"(?![\w-])",
    _I,
)
# («сами» alone is left out: «закупаются сами» is people doing it themselves)
_BY_ITSELF = (
    r"(?:сам[ао]?(?:\s+по\s+себе)?|сами\s+по\s+себе|самопроизвольно|произвольно"
    r"|ни\s+с\s+того\s+ни\s+с\s+сего)"
)
# «Я сам разобрался»: the writer did it, nothing went wrong
_NOT_THE_WRITER = r"(?<!\bя\s)(?<!\bмы\s)(?<!\bты\s)(?<!\bвы\s)"
# a finite verb of a thing's own change: reflexive («закрывается», «сбросились») or one of
# vanishing («пропал», «исчезает»)
_CHANGES = (
    r"(?:[а-яё]+(?:ется|ётся|ится|ются|ятся|ался|алась|алось|ались|ился|илась|илось|ились"
    r"|ялся|ялась|ялось|ялись)|(?:пропа|исчез|слете|слета)[а-яё]*)"
)
# What plays: «видео», «звук», «ролики» (a fault «не воспроизводится» of one is no
# reproduction of a bug).
MEDIA_NOUNS = r"(?:видео|ролик\w*|звук\w*|аудио|музык\w*|трек\w*|анимаци\w+|gif)"
PAIN_PREDICATE = re.compile(
    r"(?<![\w-])(?:тормоз(?:ит|ят|ил|или)|подвиса(?:ет|ют)|зависа(?:ет|ют)|завис(?:ло|ла|ли)|"
    r"висн(?:ет|ут)|висит|глюч(?:ит|ат)|лага(?:ет|ют)|вылета(?:ет|ют)|"
    # what gets lost is said before its verb: «правки в черновике теряются»
    r"теряются|"
    r"(?:очень\s+|слишком\s+)?(?:долго|медленно)\s+(?:грузит\w*|загружа\w+|открыва\w+|"
    r"работа\w+|синхронизир\w+|обновля\w+|отвеча\w+)|"
    r"не\s+(?:работает|работают|грузится|загружается|открывается|сохраняет\w*|"
    r"синхронизир\w+)|(?:слишком|очень|дико|жутко)\s+(?:сложн\w+|дорог\w+|медленн\w+|"
    r"запутанн\w+|неудобн\w+)|перестал[аои]?\s+работать"
    # a part that passes over what it is given: «драйвер игнорирует размер бумаги»
    r"|(?<!\bя\s)(?<!\bмы\s)(?<!\bвы\s)игнорир(?:ует|уют|уется|уются|овал\w*)"
    # a process that never ends: «список бесконечно грузится», «вечно загружается»
    r"|(?:бесконечно|вечно|постоянно)\s+(?:грузит\w*|загружа\w+|обновля\w+|перезагружа\w+"
    r"|крутит\w*|подключа\w+)"
    # media that does not play: «видео не воспроизводится» (a fault «не воспроизводится» alone
    # is one the tracker cannot repeat)
    rf"|{MEDIA_NOUNS}\s+(?:[\w-]+\s+){{0,3}}?не\s+(?:воспроизвод|проигрыва)\w+"
    # «кнопка сломана»: a short form that says what is wrong
    r"|сломан[аоы]?"
    # «Звука нет.», «Многих иконок нет.»: what should be there, named before «нет» at the
    # end of its clause (not «ошибок нет», «вопросов нет»: troubles absent)
    r"|(?!(?:ошиб|проблем|сбо|баг|жалоб|претенз|замечан|вопрос|предупрежд|нарекан|огранич"
    r"|трудност|сложност|косяк|глюк|лаг|тормоз|вылет|зависан|крит)[а-яё]*\s)"
    r"[а-яё]+(?:а|я|ов|ев|ей|ий|ок|ек)\s+(?:вообще\s+|совсем\s+|больше\s+|уже\s+)?нет"
    r"(?=\s*[.!,;)]|\s*$)"
    # «окно закрывается само», «сам по себе пропал»: what a thing does by itself, unasked
    rf"|{_NOT_THE_WRITER}{_BY_ITSELF}\s+{_CHANGES}|{_NOT_THE_WRITER}{_CHANGES}\s+{_BY_ITSELF})"
    r"(?![\w-])",
    _I,
)
PAIN_NOUN = re.compile(
    r"(?<![\w-])(?:задержк\w+|путаниц\w+|хаос\w*|бардак\w*|сбо(?:и|ев)|тормоза|двойн\w+\s+"
    r"запис\w+"
    # faults of a text or a page: «Опечатки в справке», «Битая ссылка на FAQ»
    r"|опечатк[иа]|(?:бит|м[её]ртв)(?:ая|ые|ой|ых)\s+ссылк[аиу]?"
    # what the program takes of the machine, said to be too much: «высокая нагрузка на
    # процессор», «огромное потребление памяти»
    r"|(?:(?:очень|слишком|чрезвычайно)\s+)?(?:высок|больш|огромн|чрезмерн|сильн|значительн)"
    r"\w+\s+(?:нагрузк\w+\s+на\s+(?:процессор|цп|cpu|gpu|память|диск|видеокарт)\w*"
    r"|(?:потреблени|расход|использовани)\w+\s+(?:памяти|процессора|цп|ресурсов|батаре\w+"
    r"|оперативн\w+(?:\s+памяти)?))"
    # «Самопроизвольная смена темы»: what happens unasked, named as an event
    r"|(?:самопроизвольн|непроизвольн|нежелательн|непреднамеренн)(?:ый|ая|ое|ые|ого|ой|ую|ых)"
    # an event: a noun of an action («закрытие», «переключение») or a change, scroll or restart
    r"\s+(?:[а-яё]+(?:ние|ния|нию|тие|тия|тию)|смен[аыуе]|прокрутк[аиу]|перезагрузк[аиу]"
    r"|перезапуск[аиу]?)(?:\s+[а-яё]+(?:ого|его|ой|ей))?(?:\s+[а-яё]+)?)"
    r"(?:\s+(?:в|с|при|на)\s+[\w-]+)?",
    _I,
)
PAIN_MANUAL = re.compile(r"(?<![\w-])(?:вручную|руками)(?![\w-])", _I)
SUBJECT_BOUNDARY = _words(
    "что и а но когда если у в на говорят говорит сказал сказала сказали жалуются потому "
    "поэтому который которые это все из с для по снова опять ещё еще тоже также считают считает "
    "думают думает находят кажется называют его её ее их там"
)
SUBJECT_MAX_WORDS = 4
# "у новых пользователей приложение тормозит": the subject is only the word after the phrase.
SUBJECT_PREPOSITIONS = _words("у для при")
PAIN_CUTTER = re.compile(
    r",|\s+(?:потому\s+что|так\s+как|поэтому|чтобы|но|а\s+также|когда)(?![\w-])|\s+\(", _I
)
PAIN_MAX_WORDS = 10
# A pain told after a rival and one of these is the rival's drawback ("ушли с X, потому что он
# тормозит", "у X есть склад, но он слишком дорогой").
DRAWBACK_LINK = re.compile(
    r"(?<![\w-])(?:потому\s+что|так\s+как|из-за|но|однако|хотя|зато)(?![\w-])", _I
)
# A pain right after these restates one already told in the message ("это занимает весь день");
# after a person, only when it is about the same thing.
THING_PRONOUNS = _words("это оно")
PERSON_PRONOUNS = _words("он она они")

# ----------------------------------------------------------------------------- jobs
JOB_PATTERNS = (
    re.compile(
        r"(?<![\w-])(?:нужно|надо|необходимо|важно|хотят|хочет|хотели\s+бы|хотела\s+бы|"
        r"хотел\s+бы|хотелось\s+бы|стараются|старается|пытаются|пытается|должны|должен|"
        r"мечтают)\s+(?P<j>(?:[\w-]+\s+)?[\w-]+(?:ть|ться|ти|чь)(?![\w-]).*)",
        _I,
    ),
)
# «Как вернуть старую панель?», «Подскажите, как отключить подсказки»: a question that opens
# on «как» and an infinitive asks how to do what the writer is trying to do. Mid-sentence («не
# понимаю, как …») it is not asked.
HOW_TO_JOB = re.compile(
    r"(?:(?<![\w-])(?:подскажите|скажите|объясните|посоветуйте)\W+(?:пожалуйста\W+)?)?"
    r"как\s+(?:мне\s+|можно\s+)?"
    r"(?P<j>[\w-]+(?:ть|ться|ти|чь)(?![\w-]).*)",
    _I,
)
HOW_TO_EXCLUDED_VERBS = _words(
    "исправить решить починить обойти устранить быть понять сделать воспроизвести"
)
JOB_EXCLUDED_BEFORE = re.compile(r"(?:нам|мы|мне|я|вам|вы|цель|задача|не)\s*$", _I)
JOB_EXCLUDED_VERBS = _words(
    "добавить сделать запустить внедрить встроить реализовать выпустить разработать быть"
)
JOB_CUTTER = re.compile(r",|\s+(?:чтобы|потому|так\s+как|если|пока|но)(?![\w-])|\s+\(", _I)
JOB_MAX_WORDS = 9

# ----------------------------------------------------------------------------- triggers
TRIGGER_PATTERNS = (
    re.compile(
        r"^\W*(?:когда|как\s+только|после\s+того,?\s+как|каждый\s+раз,?\s+когда|если)\s+"
        r"(?P<t>[^,;]+?),\s*(?P<main>.+)$",
        _I,
    ),
    re.compile(
        r"(?P<main>.*начина\w+\s+(?:искать|смотреть|думать).*?)\s+(?:когда|после\s+того,?\s+как)"
        r"\s+(?P<t>[^,;]+)",
        _I,
    ),
)
TRIGGER_MAIN_CUE = re.compile(
    r"(?<![\w-])(?:начина\w+\s+(?:искать|смотреть|думать|задумыват\w+|сравнивать|пробовать)|"
    r"ищ(?:ет|ут)|переход\w+|переключа\w+|задумыва\w+|обраща\w+|покупа\w+|пробу\w+|"
    r"подключа\w+|регистрир\w+)",
    _I,
)
TRIGGER_CUTTER = re.compile(r",|\s+(?:потому|поэтому|но)(?![\w-])", _I)

# ----------------------------------------------------------------------------- alternatives
ALTERNATIVES: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(r"(?<![\w-])(?:Excel|эксел\w*|эксель\w*)(?![\w-])", _I), "Excel", False),
    (
        re.compile(r"(?<![\w-])(?:Google[\s-]+(?:Таблиц\w*|Sheets?|Docs)|гугл[\s-]+таблиц\w*)", _I),
        "Google Таблицы",
        False,
    ),
    (re.compile(r"(?<![\w-])бумажн\w+\s+журнал\w*", _I), "бумажный журнал", False),
    (re.compile(r"(?<![\w-])бумажн\w+\s+тетрад\w+", _I), "бумажная тетрадь", False),
    (re.compile(r"(?<![\w-])бумажн\w+\s+карточк\w+", _I), "бумажные карточки", False),
    (re.compile(r"(?<![\w-])(?:на\s+бумаге|бумажк\w+|бумаг[аеиу])(?![\w-])", _I), "бумага", False),
    (re.compile(r"(?<![\w-])таблиц\w*", _I), "таблицы", False),
    (re.compile(r"(?<![\w-])блокнот\w*", _I), "блокнот", False),
    (re.compile(r"(?<![\w-])тетрад\w+", _I), "тетрадь", False),
    (re.compile(r"(?<![\w-])(?:WhatsApp|вотсап\w*|ватсап\w*)", _I), "WhatsApp", False),
    (re.compile(r"(?<![\w-])(?:Telegram|телеграм\w*)", _I), "Telegram", False),
    (re.compile(r"(?<![\w-])(?:Viber|вайбер\w*)", _I), "Viber", False),
    (re.compile(r"(?<![\w-])журнал\w*", _I), "журнал", True),
    (re.compile(r"(?<![\w-])(?:по\s+телефону|звонк\w+)", _I), "телефон", True),
    (
        re.compile(r"(?<![\w-])(?:электронн\w+\s+)?почт(?:а|е|у|ой)(?![\w-])|e-?mail", _I),
        "почта",
        True,
    ),
    (re.compile(r"(?<![\w-])(?:SMS|смс)(?![\w-])", _I), "SMS", True),
    (re.compile(r"(?<![\w-])1[СC](?![\w-])"), "1С", True),
    (re.compile(r"(?<![\w-])мессенджер\w*", _I), "мессенджеры", True),
    (re.compile(r"(?<![\w-])календар\w+", _I), "календарь", True),
    (re.compile(r"(?<![\w-])стикер\w+", _I), "стикеры", True),
)
# Common nouns for a tool that also name a part of something: with a genitive or a name after
# them («таблица переменных», «блокнот Jupyter», «тетрадь с кодом» is not one) they say which
# part, not a tool the writer uses instead.
PART_NOUNS = frozenset({"таблицы", "блокнот", "тетрадь"})
_NEXT_TOKEN = re.compile(r"[ \t]+([A-Za-zА-Яа-яЁё][\w-]*)")


def names_a_part(text: str, end: int) -> bool:
    """The tool noun ending at `end` has a genitive noun or a Latin name right after it."""
    following = _NEXT_TOKEN.match(text, end)
    if following is None:
        return False
    word = following.group(1)
    if word[:1].isascii():
        return True
    return "gent" in cases(word) and "nomn" not in cases(word)  # «переменных»: a noun's too


# Words kept in an alternative's quote: the preposition before it, what it comes in after it.
ALTERNATIVE_LEADS = _words("в во на через по с со из")
ALTERNATIVE_CONTAINERS = _words("группы группах группу группе чаты чатах чат чате канал каналы")
USAGE_CUE = re.compile(
    r"(?<![\w-])(?:пользу\w+|использу\w+|вед(?:ут|ёт|ет)|вести|записыва\w+|"
    r"отправля\w+|пишут|пишет|звонят|звонит|договарива\w+|через|по\s+телефону|вручную|хранят|"
    r"хранит|работают\s+в|вместо)(?![\w-])",
    _I,
)
COMPETITOR_USAGE_CUE = re.compile(
    r"(?<![\w-])(?:пользу\w+|использу\w+|перешли|переходят|ушли|уходят|платят|платит|"
    r"пробовали|пробуют|подключ\w+|сидят\s+на|работают\s+в)(?![\w-])",
    _I,
)

# ----------------------------------------------------------------------------- competitors
_NAME_LATIN = r"[A-Za-z][A-Za-z0-9&+.'-]*[A-Za-z0-9+](?:\s+[A-Z][A-Za-z0-9&+.-]*[A-Za-z0-9+]){0,2}"
_NAME_ANY = (
    r"(?:[A-Za-z][A-Za-z0-9&+.'-]*[A-Za-z0-9+]|[А-ЯЁ][а-яёА-ЯЁ0-9-]+)"
    r"(?:\s+(?:[A-Z][A-Za-z0-9&+.-]*[A-Za-z0-9+]|[А-ЯЁ][а-яё-]+)){0,2}"
)
_SEP = r"(?:\s*,\s*|\s+(?:и|или)\s+)"
NAMES_ANY = rf"(?P<names>{_NAME_ANY}(?:{_SEP}{_NAME_ANY})*)"
NAMES_LATIN = rf"(?P<names>{_NAME_LATIN}(?:{_SEP}{_NAME_LATIN})*)"
NAME_SPLIT = re.compile(r"\s*,\s*|\s+(?:и|или)\s+")
# Russian reports tell a product free of the fault among COMPETITOR_PATTERNS.
COMPETITOR_WHERE_IT_WORKS: tuple[re.Pattern[str], ...] = ()
COMPETITOR_PATTERNS = (
    re.compile(
        rf"(?<![\w-])[Кк]онкурент\w*\s*(?:—|-|:|это|—\s+это)?\s*(?:у\s+нас\s*(?:—|:)?\s*)?"
        rf"{NAMES_ANY}"
    ),
    re.compile(
        rf"(?<![\w-])(?:как\s+(?:у|в)|как|вроде|типа|например|в\s+отличие\s+от|"
        rf"по\s+сравнению\s+с)\s+{NAMES_LATIN}"
    ),
    # «вместо X» names a rival only when someone uses or picks the other thing; «печатает
    # исходный код вместо Chart» tells what should have happened
    re.compile(
        rf"(?<![\w-])(?:пользу\w+|использу\w+|перешли|переходим|выбрали|выбираем|берём|берем|"
        rf"взяли|купили|платим|платят)(?![\w-])[^.;!?]{{0,60}}?(?<![\w-])вместо\s+{NAMES_LATIN}"
    ),
    re.compile(
        rf"(?<![\w-])(?:перешли|переходят|ушли|уходят|переехали|мигрировали|уйти|перейти)\s+"
        rf"(?:с|со|от|из)\s+{NAMES_ANY}"
    ),
    re.compile(
        # «у X есть …»: what X has; a bare «…, а в X нет» only denies the clause before
        rf"(?<![\w-])(?:[Уу]|[Вв])\s+{NAMES_LATIN}\s+(?:уже\s+)?(?:есть|нет|появил\w+)"
        rf"(?![\w-])(?!\s*[.,;!?)]|\s*$)"
    ),
    # «в PyCharm такой проблемы нет»: the product compared with one free of the fault
    re.compile(
        rf"(?<![\w-])[Вв]\s+(?:браузере\s+|программе\s+|редакторе\s+|приложении\s+)?{NAMES_LATIN}"
        rf"\s+(?:такой|этой|подобной|той\s+же)\s+проблем\w*\s+"
        rf"(?:нет|не\s+было|не\s+возникает|не\s+наблюдается)(?![\w-])",
        _I,
    ),
    # «в X всё работает»: the product compared with one where the same thing works
    re.compile(
        rf"(?<![\w-])[Вв]\s+{NAMES_LATIN}\s+(?:(?:вс[её]|это|он[оа]?)\s+)?(?:нормально\s+|"
        rf"отлично\s+|прекрасно\s+)?(?:работа\w+|открыва\w+|запуска\w+|отобража\w+)(?![\w-])"
    ),
    re.compile(
        rf"(?<![\w-]){NAMES_LATIN}\s+(?:уже\s+)?(?:предлага\w+|умеет|позволяет|поддерживает|"
        rf"запустил\w*)(?![\w-])"
    ),
    # the products a fault was checked against: «Проверено в Opera и Vivaldi»
    re.compile(
        rf"(?<![\w-])(?:[Пп]роверено|[Пп]роверил\w*|[Пп]роверял\w*|[Пп]ротестирован\w*|"
        rf"[Пп]ротестировал\w*)\s+(?:(?:это|его|её|ее|также|ещё|еще|тоже)\s+)?(?:в|на|с)\s+"
        rf"{NAMES_LATIN}"
    ),
    # the web-compatibility form's answer: «Проверено в другом браузере: Да, Opera»
    re.compile(
        rf"(?<![\w-])[Пп]роверено\s+в\s+другом\s+браузере\W{{0,4}}\s*[Дд]а\W{{0,2}}\s*{NAMES_LATIN}"
    ),
    # told apart from this product: «здесь пусто, а в Opera — нет»
    re.compile(rf"(?<![\w-])а\s+(?:в|на)\s+{NAMES_LATIN}\s*[—–-]+\s*нет(?![\w-])"),
    # where the fault does not happen: «В Chrome не воспроизводится», «не воспроизводится в Opera»
    re.compile(
        rf"(?<![\w-])(?:[Вв]|[Нн]а)\s+{NAMES_LATIN}\s+(?:(?:это|проблема|ошибка|баг)\s+)?"
        rf"не\s+воспроизвод\w+"
    ),
    re.compile(rf"(?<![\w-])[Нн]е\s+воспроизвод\w+\s+(?:в|на|с)\s+{NAMES_LATIN}"),
    # «Firefox работает.», «Нормально работает в Opera»
    re.compile(
        rf"(?<![\w-]){NAMES_LATIN}\s+(?:тоже\s+|всё\s+|все\s+)?работа(?:ет|ют)"
        rf"(?:\s*(?=[.!;)]|$)|\s+без\s+(?:проблем|ошибок|нареканий))"
    ),
    re.compile(
        rf"(?<![\w-])(?:[Нн]ормально|[Кк]орректно|[Пп]равильно|[Вв]с[её]|[Тт]оже)\s+работает\s+"
        rf"(?:в|на|с|под)\s+{NAMES_LATIN}"
    ),
    # done right there: «Opera 102 отображает страницу правильно», «в Opera всё нормально грузится»
    re.compile(
        rf"(?<![\w-]){NAMES_LATIN}(?:\s+v?\d[\w.]*)?\s+(?:[\w-]+\s+){{0,3}}?"
        rf"(?:правильно|корректно)(?![\w-])"
    ),
    re.compile(
        rf"(?<![\w-])[Вв]\s+{NAMES_LATIN}\s+(?:[\w-]+\s+){{0,2}}?(?:нормально|корректно|правильно)"
        rf"\s+(?:работа\w+|открыва\w+|загрузил\w*|загружа\w+|грузит\w*|отобража\w+)(?![\w-])"
    ),
    # mended there, not here: «Исправлено для Opera, но не для нас»
    re.compile(
        rf"(?<![\w-])(?:[Ии]справлено|[Пп]очинено|[Рр]аботает)\s+(?:для|в|на)\s+{NAMES_LATIN},?\s+"
        rf"(?:но|а)\s+не(?![\w-])"
    ),
    re.compile(
        rf"(?<![\w-])(?:пользуются|используют|платят\s+за|пробовали|сидят\s+на|"
        rf"(?:[Рр]аньше|[Дд]о\s+этого)\s+(?:пользовал\w*|использовал\w*))\s+{NAMES_LATIN}"
    ),
)
# Capitalised words that are not names: pronouns, determiners, conjunctions, prepositions,
# adverbs, numerals, days, months and common technical and business acronyms.
NOT_NAMES = _words(
    "Я Мы Ты Вы Он Она Оно Они Мой Моя Мои Наш Наша Наше Наши Ваш Ваша Ваши Их Его Её Ее Это "
    "Этот Эта Эти Тот Та Те Все Всё Весь Каждый Каждая Любой Другой Другие Такой Такие Сам "
    "Сами Кто Что Где Куда Когда Как Почему Зачем Какой Какие Который Которые И А Но Или Да "
    "Нет Не Ни Если После До Потом Затем Теперь Сейчас Уже Ещё Еще Снова Опять Также Тоже "
    "Поэтому Однако Хотя Зато Причём Причем Чтобы Пока Тогда Здесь Там В Во На С Со Из От "
    "До Для По К Ко У О Об При Без Через Про За Под Над Между Большинство Многие Некоторые "
    "Несколько Один Одна Одно Два Две Три Четыре Пять Первый Второй Последний Понедельник "
    "Вторник Среда Четверг Пятница Суббота Воскресенье Январь Февраль Март Апрель Май Июнь "
    "Июль Август Сентябрь Октябрь Ноябрь Декабрь B2B B2C SMB CRM ERP SMS API GPS UI UX MVP "
    "CEO PM"
)

# ----------------------------------------------------------------------------- features
FEATURE_PATTERNS = (
    # «Добавьте, пожалуйста, …»: the courtesy word between the verb and what is asked for
    re.compile(
        r"(?<![\w-])(?:добавить|добавьте|добавили\s+бы)(?:\s*,?\s*пожалуйста\s*,)?\s+(?P<f>.+)",
        _I,
    ),
    re.compile(
        r"(?<![\w-])(?:планируем|хотим|будем|собираемся|решили|нужно|надо|стоит|можно|"
        r"предлагаем|думаем|попробуем|начн[её]м|план\s*(?:—|:))\s+(?:[\w-]+\s+)?"
        r"(?:добавить|сделать|запустить|внедрить|встроить|реализовать|выпустить|разработать|"
        r"подключить|ввести|протестировать)\s+(?P<f>.+)",
        _I,
    ),
    re.compile(
        r"(?<![\w-])(?:добавим|сделаем|запустим|внедрим|встроим|реализуем|выпустим|разработаем)"
        r"\s+(?P<f>.+)",
        _I,
    ),
    re.compile(r"(?<![\w-])(?:функци[яиюей]|фич[аиуе])\s*(?:—|:)\s*(?P<f>.+)", _I),
)
# A request's verb after a failed attempt is what did not work («не могу прикрепить файл»,
# «при попытке импортировать календарь»), not something asked for.
FEATURE_EXCLUDED_BEFORE = re.compile(
    r"(?:не\s+(?:могу|может|можем|могут|получается|получилось|удаётся|удается|удалось)|"
    r"невозможно|нельзя|попытк\w*|пыта\w+|пробу\w+|пробовал\w*)\s*$",
    _I,
)
FEATURE_OFFERED = re.compile(
    r"^\s+(?:уже\s+)?(?:есть|предлага\w+|появил\w+|умеет|поддерживает)\s+(?P<f>.+)", _I
)
FEATURE_CUTTER = re.compile(
    r",|\s+(?:чтобы|который|которая|которое|которые|за|вместе|так\s+как|потому|но|если|для\s+"
    r"того)(?![\w-])|\s+\(",
    _I,
)
FEATURE_MAX_WORDS = 6

# ----------------------------------------------------------------------------- metrics
METRIC_NUMBER = re.compile(
    r"(?:(?<![\w.,])\d+(?:[.,]\d+)?\s?(?:%|процент\w*|минут\w*|мин(?![\w-])|час(?:а|ов)?(?![\w-])|"
    r"ч(?![\w-])|сут(?:ки|ок)(?![\w-])|дн(?:я|ей)(?![\w-])|день(?![\w-])|недел\w+|месяц\w*|"
    r"лет(?![\w-])|год\w*|секунд\w*|сек(?![\w-])|раз\w*|руб\w*|₽|тыс\w*\.?(?:\s+руб\w*)?|"
    r"млн\w*\.?(?:\s+руб\w*)?|МБ|ГБ|КБ|MB|GB|KB|км)(?:\s+в\s+(?:день|неделю|месяц|год|час|сутки|смену))?"
    r"|[₽$€]\s?\d+(?:[.,]\d+)?)",
    _I,
)
METRIC_CUTTER = re.compile(
    r"\s+(?:каждое|каждый|каждую|в\s+среднем|за\s+последн\w+|потому|поэтому|но|так\s+как)"
    r"(?![\w-])|\s*\(",
    _I,
)
METRIC_MAX_WORDS = 10
# Money someone would pay or may spend is a price expectation, not a measurement.
PRICE_EXPECTATION = re.compile(
    r"(?<![\w-])(?:плат\w*|заплат\w*|бюджет\w*|потрат\w*|готов\w*\s+отдать)(?![\w-])", _I
)
MONEY = re.compile(r"руб|₽|[$€]|(?<![\w-])(?:тыс|млн)", _I)

# ----------------------------------------------------------------------------- goals
GOAL_PATTERNS = (
    re.compile(
        r"(?<![\w-])(?:(?:наша|главная|основная|ключевая)\s+)*(?:цель|задача)"
        r"(?:\s+на\s+[\w-]+(?:\s+[\w-]+)?)?\s*(?:—|-|:|это|в\s+том,?\s+чтобы)\s*(?P<g>.+)",
        _I,
    ),
    re.compile(
        r"(?<![\w-])(?:хотим|планируем|стремимся|нам\s+нужно|нам\s+надо|должны)\s+"
        r"(?P<g>(?:снизить|сократить|увеличить|повысить|довести|уменьшить|вырастить|удвоить|"
        r"достичь|поднять|ускорить|выйти\s+на)(?![\w-]).+)",
        _I,
    ),
)
GOAL_CUTTER = re.compile(
    r"\s+(?:к\s+(?:концу|лету|весне|осени|зиме|началу|середине|\d)|в\s+этом\s+(?:году|квартале)|"
    r"до\s+конца|чтобы)(?![\w-])|,|;",
    _I,
)
GOAL_MAX_WORDS = 12

# ----------------------------------------------------------------------------- risks
RISK_PATTERNS = (
    re.compile(
        r"(?<![\w-])риск\w*\s*(?:—|-|:|в\s+том,?\s+что|что|это|такой)\s*(?P<r>.+)",
        _I,
    ),
    re.compile(r"(?<![\w-])рискуем\s+(?P<r>.+)", _I),
    re.compile(r"(?<![\w-])(?:опасность|угроза)\s*(?:—|:|в\s+том,?\s+что)\s*(?P<r>.+)", _I),
)
RISK_CUTTER = re.compile(r",|;|\s+(?:потому|поэтому|так\s+как|если)(?![\w-])", _I)
RISK_MAX_WORDS = 12

# ----------------------------------------------------------------------------- segment helpers
NOUN_COMPOUNDS = False  # Russian puts the owner after the head, in the genitive
GENERIC_SEGMENTS = frozenset({"пользователи", "клиенты", "люди"})
_HEAD_PATTERNS = tuple(
    (re.compile(pattern, _I), label, needs) for pattern, label, needs in SEGMENT_HEADS
)
_AGENT_PATTERNS = tuple(
    (re.compile(rf"(?P<stem>{stem}){endings}", _I), plural) for stem, endings, plural in AGENT_NOUNS
)
_NOT_PEOPLE_WORD = re.compile(_NOT_PEOPLE, _I)


# An agent noun followed by the things it handles names a software tool: «диспетчер задач»,
# «менеджер пакетов», «установщик расширений».
TOOL_OBJECT_AFTER = re.compile(
    r"\s+(?:задач|устройств|пакетов|файлов|расширений|плагинов|версий|паролей|окон|загрузок|"
    r"процессов|зависимостей|обновлений|буфера)(?![\w-])",
    _I,
)


_NEXT_WORD = re.compile(r"\s+([А-Яа-яЁё]+)")


def segment_head(found: re.Match[str]) -> tuple[str, bool] | None:
    """The plural nominative label of a matched head, keeping a prefix such as 'онлайн-'.

    A role of one particular thing, told by a singular inanimate genitive after it («автор
    расширения», «разработчики проекта», «участники сессии», «переводчик интерфейса»), is
    those few people or a tool, not a group of customers; the roles that attach to what
    they run («владельцы салона», «администраторы школы») are left to the segment's tail."""
    described = _segment_head(found)
    if described is None or _names_a_thing(found):
        return None
    if described[0] in ATTACHING_HEADS:
        return described
    following = _NEXT_WORD.match(found.string, found.end())
    if following is not None:
        tags = grammemes(following.group(1))
        if {"NOUN", "inan", "sing"} <= tags and "gent" in cases(following.group(1)):
            return None
    return described


# A singular role noun with a name in Latin letters names one thing or one firm, not a group:
# «ассистент Copilot», «провайдер OpenAI», «Git-клиент».
_LATIN_NAME_AFTER = re.compile(r"[ \t]+[A-Za-z][\w.+#-]*")
_LATIN_PREFIX = re.compile(r"^[A-Za-z][\w.+#]*-$")
# Prepositions that take the accusative: after them a masculine noun that looks nominative is
# inanimate («через проводник», «в установщик»), where a person would take the genitive form
# («через проводника»).
_ACCUSATIVE_PREPOSITIONS = frozenset({"через", "сквозь", "про", "в", "во", "на", "за"})
_PREVIOUS_WORD = re.compile(r"([А-Яа-яЁё-]+)[ \t]+$")


# The suffixes borrowed names of tools share with borrowed names of people: «линтер»,
# «дебагер», «парсер» beside «менеджер», «дизайнер»; only an animate reading tells them apart.
_BORROWED_AGENT = re.compile(r"(?:[её]р|ор)(?:а|у|ом|е|ы|ов|ам|ами|ах)?$", re.IGNORECASE)


def _names_a_thing(found: re.Match[str]) -> bool:
    """The head is a thing or one named firm: a borrowed tool's name (any number), or,
    singular, a Latin name right after it or as its prefix, or the accusative of an inanimate
    noun (nominative in form) after a preposition or after a verb of the writer's («открываю
    проводник», «установите помощник»)."""
    word = found["head"]
    if _BORROWED_AGENT.search(word) and not may_name_a_person(word):
        return True  # «дебагер», «линтеры»: a tool's borrowed name, no person
    tags = grammemes(word)
    if "sing" not in tags:
        return False
    if _LATIN_NAME_AFTER.match(found.string, found.end()) or _LATIN_PREFIX.match(
        found["prefix"] or ""
    ):
        return True
    if "masc" not in tags or "nomn" not in cases(word) or "gent" in cases(word):
        return False
    previous = _PREVIOUS_WORD.search(found.string, max(0, found.start() - 40), found.start())
    if previous is None:
        return False
    before = previous.group(1)
    if before.lower() in _ACCUSATIVE_PREPOSITIONS:
        return True
    verb = grammemes(before)
    return bool(verb & {"VERB", "INFN"}) and bool(verb & {"1per", "2per", "impr", "INFN"})


def _segment_head(found: re.Match[str]) -> tuple[str, bool] | None:
    word = found["head"]
    if TOOL_OBJECT_AFTER.match(found.string, found.end()):
        return None
    prefix = (found["prefix"] or "").lower()
    for pattern, label, needs_modifier in _HEAD_PATTERNS:
        if pattern.fullmatch(word):
            return prefix + label, needs_modifier
    if _NOT_PEOPLE_WORD.fullmatch(word):
        return None
    before = found.string[max(0, found.start() - 20) : found.start()].rstrip()
    if word[:1].isupper() and before and before[-1] not in '.!?:;("«—–-•*':
        return None  # a name inside the sentence ("с Виктором", "в Мастере")
    for pattern, plural in _AGENT_PATTERNS:
        agent = pattern.fullmatch(word)
        if agent is not None:
            stem = agent["stem"].lower()
            return prefix + IRREGULAR_PLURALS.get(stem, stem + plural), False
    return None


# Where a group stands with a product, not which group it is ("платящих пользователей", "новые
# клиенты"): these end the segment's name.
NOT_NAME_MODIFIERS = re.compile(
    r"^(?:нов|платящ|активн|неактивн|текущ|потенциальн|существующ|бывш|постоянн)"
    r"(?:ые|ых|ым|ыми|ий|ый|ая|ое|ого|ому|ие|их|им|ими|ей|ую|ой)$",
    _I,
)


def modifier_label(word: str, sentence_initial: bool) -> str | None:
    if word.lower() in NOT_MODIFIERS or NOT_NAME_MODIFIERS.match(word):
        return None
    if "NOUN" in grammemes(word):
        return None  # «режим администратора»: a noun that only ends like an adjective
    return adjective_plural(word)


_LOCATIVE_PREPOSITIONS = frozenset({"в", "во", "на"})
_LAST_WORD = re.compile(r"([А-Яа-яЁё-]+)\s*$")


# The writer's own role: «Я разработчик», «Я начинающий программист», «Как программист, я …»,
# «Работаю тестировщиком».
_WRITER_ROLE_BEFORE = frozenset({"я", "как", "работаю", "являюсь", "работал", "работала"})
_ROLE_PARTICLES = frozenset({"не", "же", "тоже", "также", "ведь", "лишь", "просто", "всего", "сам"})


def graded_adjective(head: str, before: str) -> bool:
    """Russian adjectives and person nouns differ in form («терпеливый», «пациент»)."""
    return False


def names_one(head: str, before: str) -> bool:
    """Russian has no articles to tell one shop from shops, but a singular head in three
    slots names one thing or one person, never a group: a possessor right after a noun, which
    makes a thing's name («консоль разработчика», «режим администратора»), a place after
    «в»/«на» («в проводнике», «на сборщике»), and the writer's own role («Я разработчик»)."""
    if "sing" not in grammemes(head):
        return False
    last = _LAST_WORD.search(before)
    if last is None:
        return False
    word = last.group(1)
    if _the_writers_role(before):
        return True
    if word.lower() in _LOCATIVE_PREPOSITIONS:
        return bool(grammemes(head) & {"loct", "loc2"})
    tags = grammemes(word)
    return "NOUN" in tags and "gent" in cases(head)


def _the_writers_role(before: str) -> bool:
    """The words before a role are the writer's («Я», «Как»), particles aside («Я не», «я тоже
    просто»)."""
    words = [w.lower() for w in re.findall(r"[А-Яа-яЁё-]+", before)]
    while words and words[-1] in _ROLE_PARTICLES:
        words.pop()
    return bool(words) and words[-1] in _WRITER_ROLE_BEFORE


def segment_tail(label: str, rest: str) -> re.Match[str] | None:
    """The genitive that completes a role: 'владельцы ресторанов', 'родители школьников';
    the platform people work on: «пользователи Windows», «разработчики Linux»."""
    platform = _PLATFORM_AFTER.match(rest)
    if platform is not None:
        return platform
    if label in ATTACHING_HEADS:
        return re.match(r"^\s+(" + SEGMENT_HEAD.pattern + r")", rest, _I)
    return None


_PLATFORM_AFTER = re.compile(
    r"^\s+(Windows|Linux|macOS|Mac|Ubuntu|Debian|Android|iOS|WSL|ChromeOS)(?![\w-])", _I
)

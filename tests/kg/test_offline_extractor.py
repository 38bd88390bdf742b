"""The offline (rule-based) extractor: verbatim quotes, ontology-only output, and recall on the
annotated conversations in tests/kg/gold and tests/kg/unseen. Neither is held out: the rules
were tuned against gold, and the lexicons were written with the unseen ones at hand too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.similarity import same_thing
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse
from kg.ontology import check_node_type, check_relation

HERE = Path(__file__).parent
GOLD = sorted((HERE / "gold").glob("*.json"))
UNSEEN = sorted((HERE / "unseen").glob("*.json"))
NUMBER = re.compile(r"\d+(?:[.,]\d+)?")

# Measured: gold 0.94, unseen 0.89 (138/147 and 58/65 mentions), after the lexicons lost the
# entries that quoted these conversations (the same extractor with the old lexicons: 140/147
# and 59/65). "Unseen" is not held out: the lexicons were written with it at hand, so neither
# figure measures the rules on text they were not written with. A node said twice in one
# message keeps one quote, so a second mention only counts when the quotes happen to overlap;
# quotes are kept short (one tool, one rival, one segment each), which trades a few such
# mentions for nodes that do not steal each other's evidence. The floors leave room for rule
# changes that trade a little recall for precision.
GOLD_RECALL_FLOOR = 0.9
UNSEEN_RECALL_FLOOR = 0.8


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _extract(text: str, language: str = "en", product: str = "RouteMate") -> ExtractionResponse:
    return extract_offline(ExtractionRequest(text=text, language=language, product=product))


def _conversation_answers(path: Path) -> tuple[dict, list[ExtractionResponse]]:
    conversation = _load(path)
    answers = [
        _extract(m["text"], conversation["language"], conversation["product"])
        for m in conversation["messages"]
    ]
    return conversation, answers


def _by_label(answer: ExtractionResponse, node_type: str) -> dict[str, object]:
    return {n.label: n for n in answer.nodes if n.type == node_type}


def _relations(answer: ExtractionResponse) -> set[tuple[str, str, str]]:
    nodes = {n.ref: n for n in answer.nodes}
    return {(r.relation, nodes[r.source].label, nodes[r.target].label) for r in answer.relations}


def _overlaps(expected: str, extracted: str) -> bool:
    expected, extracted = expected.lower(), extracted.lower()
    return expected in extracted or extracted in expected


def _recall(paths: list[Path]) -> tuple[int, int]:
    """Expected mentions matched by an extracted node of the same type whose quote overlaps."""
    found = total = 0
    for path in paths:
        conversation, answers = _conversation_answers(path)
        for node in conversation["expected"]["nodes"]:
            for mention in node["mentions"]:
                answer = answers[mention["message"] - 1]
                total += 1
                found += any(
                    n.type == node["type"] and _overlaps(mention["quote"], n.quote)
                    for n in answer.nodes
                )
    return found, total


# ----------------------------------------------------------------------------- data files


def test_there_are_gold_and_unseen_conversations():
    assert len(GOLD) >= 3 and len(UNSEEN) >= 2
    languages = {_load(p)["language"] for p in GOLD}
    assert languages == {"en", "ru"}


@pytest.mark.parametrize("path", GOLD + UNSEEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_annotations_are_consistent(path: Path):
    conversation = _load(path)
    messages = conversation["messages"]
    assert 8 <= len(messages) <= 15
    stamps = [m["at"] for m in messages]
    assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)
    types = {n["label"]: n["type"] for n in conversation["expected"]["nodes"]}
    for node in conversation["expected"]["nodes"]:
        check_node_type(node["type"])
        for mention in node["mentions"]:
            assert mention["quote"] in messages[mention["message"] - 1]["text"], mention
    for edge in conversation["expected"]["edges"]:
        check_relation(edge["relation"], types[edge["source"]], types[edge["target"]])
    assert conversation["expected"]["invalidations"]
    assert conversation["expected"]["contradictions"]


# ----------------------------------------------------------------------------- every answer


@pytest.mark.parametrize("path", GOLD + UNSEEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_quotes_are_verbatim_and_types_are_in_the_ontology(path: Path):
    conversation, answers = _conversation_answers(path)
    for message, answer in zip(conversation["messages"], answers, strict=True):
        text = message["text"]
        refs = [n.ref for n in answer.nodes]
        assert len(refs) == len(set(refs))
        keys = [(n.type, n.label.casefold()) for n in answer.nodes]
        assert len(keys) == len(set(keys)), "duplicate nodes"
        types = {n.ref: n.type for n in answer.nodes}
        for node in answer.nodes:
            assert node.quote and node.quote in text, node
            assert node.label.strip() == node.label and node.label
            check_node_type(node.type)
        for relation in answer.relations:
            assert relation.quote and relation.quote in text, relation
            check_relation(relation.relation, types[relation.source], types[relation.target])


@pytest.mark.parametrize("path", GOLD + UNSEEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_metric_numbers_are_in_their_quotes(path: Path):
    _, answers = _conversation_answers(path)
    metrics = [n for answer in answers for n in answer.nodes if n.type == "metric"]
    assert metrics
    for metric in metrics:
        numbers = NUMBER.findall(metric.value)
        assert numbers, metric
        assert all(number in metric.quote for number in numbers), metric


@pytest.mark.parametrize("path", GOLD + UNSEEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_numbers_in_any_label_are_in_its_quote(path: Path):
    _, answers = _conversation_answers(path)
    for node in (n for answer in answers for n in answer.nodes):
        assert all(number in node.quote for number in NUMBER.findall(node.label)), node


def test_market_sentence_without_the_product_number_gives_no_product_node():
    answer = _extract("Our market is B2B.", product="Route66")
    assert "B2B" in _by_label(answer, "market")
    assert not _by_label(answer, "product")


@pytest.mark.parametrize("path", GOLD, ids=lambda p: p.stem)
def test_extraction_is_deterministic(path: Path):
    conversation = _load(path)
    for message in conversation["messages"]:
        first = _extract(message["text"], conversation["language"], conversation["product"])
        second = _extract(message["text"], conversation["language"], conversation["product"])
        assert first.model_dump() == second.model_dump()


@pytest.mark.parametrize("text", ["", "   ", "\n\t \n"])
def test_empty_text_gives_nothing(text: str):
    assert _extract(text) == ExtractionResponse()


# ----------------------------------------------------------------------------- behaviour


@pytest.mark.parametrize(
    ("text", "language", "market"),
    [
        ("Our market is B2B: we sell to courier companies.", "en", "B2B"),
        ("After the board meeting we are pivoting to B2C.", "en", "B2C"),
        ("Наш рынок — B2B: продаём салонам красоты.", "ru", "B2B"),
        ("Решили: переходим на B2C и будем продавать мастерам.", "ru", "B2C"),
    ],
)
def test_market_statement_gives_market_product_and_targets_market(text, language, market):
    answer = _extract(text, language, product="Slotik")
    markets = _by_label(answer, "market")
    products = _by_label(answer, "product")
    assert market in markets and "Slotik" in products
    assert products["Slotik"].quote == markets[market].quote
    assert products["Slotik"].quote in text
    assert ("targets_market", "Slotik", market) in _relations(answer)


@pytest.mark.parametrize(
    ("matters", "does_not", "language"),
    [
        ("Price is the main factor for them.", "For them price does not matter.", "en"),
        ("Cost is the deciding factor.", "Price isn't important to them.", "en"),
        ("Цена — главный фактор.", "Цена не важна.", "ru"),
        ("Для них стоимость — решающий фактор.", "Цена для них не главное.", "ru"),
    ],
)
def test_price_opinions_share_a_subject_with_opposite_stances(matters, does_not, language):
    positive = [n for n in _extract(matters, language).nodes if n.type == "insight"]
    negative = [n for n in _extract(does_not, language).nodes if n.type == "insight"]
    assert len(positive) == 1 and len(negative) == 1
    assert positive[0].subject == negative[0].subject == "price"
    assert (positive[0].stance, negative[0].stance) == ("positive", "negative")


def test_price_subject_is_the_same_key_in_both_languages():
    english = _extract("Price does not matter.", "en").nodes[0]
    russian = _extract("Цена — главный фактор.", "ru").nodes[0]
    assert english.subject == russian.subject == "price"


@pytest.mark.parametrize(
    ("text", "language", "finding"),
    [
        (
            "Most participants skipped the welcome tour, usually within seconds.",
            "en",
            "most participants skipped the welcome tour",
        ),
        (
            "Three of five testers asked for a slower, calmer, or quieter mode (a dark one).",
            "en",
            "three of five testers asked for a slower, calmer, or quieter mode",
        ),
        (
            "Большинство респондентов открывали отчёт с телефона, а не с ноутбука.",
            "ru",
            "большинство респондентов открывали отчёт с телефона",
        ),
    ],
)
def test_what_a_share_of_the_people_studied_did_is_a_finding(text, language, finding):
    """A research write-up's observation is kept whole, up to the comma that ends it (not one
    inside a list) or an aside in brackets; it is no opinion, so nothing to contradict, and
    its segment did it rather than values it."""
    answer = _extract(text, language, product="")
    insights = _by_label(answer, "insight")
    assert list(insights) == [finding]
    assert (insights[finding].subject, insights[finding].stance) == ("", "")
    assert not any(r.relation == "values" for r in answer.relations)


@pytest.mark.parametrize(
    "text",
    [
        "Some users who paid early got a discount.",  # the share is described, not a statement
        "All user data is deleted after a year.",  # no people: "all" is about the data
        "Many customers agreed.",  # too little to stand alone
    ],
)
def test_a_share_without_a_statement_about_people_is_no_finding(text):
    assert not _by_label(_extract(text, product=""), "insight")


@pytest.mark.parametrize(
    ("text", "language", "segment"),
    [
        ("Couriers say the app lags on weak internet in basements.", "en", "couriers"),
        ("Small shop owners hate counting stock by hand.", "en", "small shop owners"),
        ("Курьеры жалуются, что приложение тормозит в подвалах.", "ru", "курьеры"),
        ("Мастерам неудобно смотреть расписание с телефона.", "ru", "мастера"),
    ],
)
def test_segment_and_pain_in_one_sentence_are_linked(text, language, segment):
    answer = _extract(text, language)
    pains = _by_label(answer, "pain")
    assert segment in _by_label(answer, "segment") and len(pains) == 1
    (pain,) = pains
    assert ("experiences", segment, pain) in _relations(answer)


def test_english_patterns():
    answer = _extract(
        "Dispatchers use Excel and WhatsApp to plan routes. "
        "A few fleets switched from Onfleet because it was too expensive. "
        "When a new client signs a contract, the dispatcher starts looking for a tool. "
        "Dispatchers need to rebuild routes when an order is cancelled. "
        "We plan to add an offline mode, so the lag in basements goes away. "
        "40% of orders are late. "
        "Our goal is to cut failed deliveries to under 5% by the end of Q2. "
        "The risk is that drivers will not install a 200 MB app."
    )
    types = {n.type for n in answer.nodes}
    assert {"alternative", "competitor", "trigger", "job", "feature", "pain"} <= types
    assert {"metric", "goal", "risk", "segment"} <= types
    assert {"Excel", "WhatsApp"} <= set(_by_label(answer, "alternative"))
    assert "Onfleet" in _by_label(answer, "competitor")
    assert _by_label(answer, "metric")["40% of orders are late"].value == "40%"
    relations = _relations(answer)
    assert ("uses", "dispatchers", "Excel") in relations
    assert ("triggered_by", "dispatchers", "new client signs a contract") in relations
    assert ("solves", "offline mode", "lag in basements") in relations


def test_russian_patterns():
    answer = _extract(
        "Большинство салонов пользуются Excel и бумажным журналом. "
        "Конкуренты — YCLIENTS и DIKIDI. У YCLIENTS есть онлайн-предоплата. "
        "Когда салон открывает второй филиал, владелец начинает искать новую систему. "
        "Частным мастерам нужно вести запись и оплату в одном приложении. "
        "Планируем добавить SMS-напоминания, чтобы клиенты не забывали о визите. "
        "30% записей отменяются в последний день. "
        "Цель — снизить долю неявок до 10% к лету. "
        "Риск: клиенты могут отписаться от SMS.",
        "ru",
    )
    assert {"Excel", "бумажный журнал"} <= set(_by_label(answer, "alternative"))
    assert {"YCLIENTS", "DIKIDI"} <= set(_by_label(answer, "competitor"))
    assert "частные мастера" in _by_label(answer, "segment")
    assert _by_label(answer, "metric")["30% записей отменяются в последний день"].value == "30%"
    assert {"trigger", "job", "feature", "goal", "risk"} <= {n.type for n in answer.nodes}
    relations = _relations(answer)
    assert ("uses", "салоны", "Excel") in relations
    assert ("offers", "YCLIENTS", "онлайн-предоплата") in relations
    assert ("has_job", "частные мастера", "вести запись и оплату в одном приложении") in relations


@pytest.mark.parametrize(
    ("text", "language", "trigger"),
    [
        ("Office managers start looking for a new tool when their lease ends.", "en", "lease ends"),
        # The search starts on a later line of the text: the pattern reads each line from its start.
        (
            "Call notes, week 3\nOffice managers started searching for another vendor after "
            "the prices went up.",
            "en",
            "prices went up",
        ),
        (
            "Владельцы кафе начинают искать новую кассу, когда старая ломается.",
            "ru",
            "старая ломается",
        ),
    ],
)
def test_trigger_told_after_the_search_starts(text: str, language: str, trigger: str):
    answer = _extract(text, language)
    assert [n.label for n in answer.nodes if n.type == "trigger"] == [trigger]


def test_they_refers_to_the_segment_of_the_previous_sentence():
    answer = _extract("Five interviews with independent couriers. They said price does not matter.")
    relation = next(r for r in answer.relations if r.relation == "values")
    assert relation.quote.startswith("Five interviews") and relation.quote.endswith("matter")


def test_quotes_are_slices_even_with_odd_spacing_and_bullets():
    text = "- Couriers   hate\twaiting at the depot.\n\n2) Our market is  B2B ."
    answer = _extract(text)
    assert answer.nodes
    assert all(n.quote in text for n in answer.nodes)
    assert all(r.quote in text for r in answer.relations)


def test_a_hard_wrapped_line_goes_on_and_a_short_line_stands_alone():
    text = (
        "Dispatchers told us that they often try to reassign the urgent jobs of\n"
        "absent technicians by phone, which takes most of the morning.\n"
        "offline maps\n"
        "route sharing"
    )
    answer = _extract(text, product="")
    jobs = [n.label for n in answer.nodes if n.type == "job"]
    assert "reassign the urgent jobs of absent technicians by phone" in jobs
    assert all(n.quote in text for n in answer.nodes)
    assert not any("maps route" in n.label for n in answer.nodes)


def test_what_people_attempt_to_do_is_their_job():
    answer = _extract("Night nurses often attempt to swap shifts through group chats.", product="")
    assert ("job", "swap shifts through group chats") in {(n.type, n.label) for n in answer.nodes}


# ----------------------------------------------------------------------------- precision


@pytest.mark.parametrize(
    ("text", "language", "segments"),
    [
        # a size, not a group
        (
            "We sell to courier companies that run fleets of 20+ drivers.",
            "en",
            {"courier companies"},
        ),
        ("Продаём онлайн-школам, у которых по 50–200 преподавателей.", "ru", {"онлайн-школы"}),
        ("Владелица сети из трёх салонов: цена — главный фактор.", "ru", {"владельцы"}),
        # one company, or the one person a ticket came from; someone interviewed stays
        ("Support ticket from a driver: the map freezes.", "en", set()),
        ("Interview with Oleg, a courier at a mid-size delivery firm.", "en", {"couriers"}),
        ("Interview with a plumber: invoices take forever.", "en", {"plumbers"}),
        ("Store managers at the pilot chain complained.", "en", {"store managers"}),
        (
            "When a supplier raises prices, the dispatcher starts looking.",
            "en",
            {"suppliers", "dispatchers"},
        ),
        # comparison and lifecycle words do not name a group; users and clients are nobody
        ("A few bigger fleets switched from Onfleet.", "en", set()),
        ("25% of new users stop opening the app.", "en", set()),
        ("Цель — довести долю платящих репетиторов до 15%.", "ru", {"репетиторы"}),
        ("Клиенты могут отписаться от SMS.", "ru", set()),
        ("Independent couriers want to track earnings.", "en", {"independent couriers"}),
    ],
)
def test_only_groups_of_customers_are_segments(text, language, segments):
    assert set(_by_label(_extract(text, language), "segment")) == segments


def test_segments_in_one_clause_get_their_own_words():
    text = (
        "Our users are small shop owners with one or two stores and a couple of part-time cashiers."
    )
    segments = _by_label(_extract(text), "segment")
    assert segments["small shop owners"].quote.startswith("Our users are small shop owners")
    assert "cashiers" not in segments["small shop owners"].quote
    assert segments["part-time cashiers"].quote == "part-time cashiers"


@pytest.mark.parametrize(
    ("text", "language", "quotes"),
    [
        (
            "Most dispatchers use Excel and WhatsApp groups to hand out routes.",
            "en",
            {"Excel": "use Excel", "WhatsApp": "WhatsApp groups"},
        ),
        (
            "They keep stock in paper notebooks or in Excel.",
            "en",
            {"paper notebooks": "in paper notebooks", "Excel": "in Excel"},
        ),
        (
            "Большинство салонов пользуются Excel и бумажным журналом.",
            "ru",
            {"Excel": "пользуются Excel", "бумажный журнал": "бумажным журналом"},
        ),
    ],
)
def test_each_tool_of_a_list_has_its_own_quote(text, language, quotes):
    alternatives = _by_label(_extract(text, language), "alternative")
    assert {label: node.quote for label, node in alternatives.items()} == quotes


def test_each_rival_of_a_list_has_its_own_quote():
    answer = _extract(
        "Конкуренты — YCLIENTS и DIKIDI. У YCLIENTS есть онлайн-предоплата.", "ru", "Slotik"
    )
    competitors = _by_label(answer, "competitor")
    assert competitors["DIKIDI"].quote == "DIKIDI"
    assert competitors["YCLIENTS"].quote == "У YCLIENTS есть"
    answer = _extract("Competitors like Circuit already offer an earnings tracker.")
    assert _by_label(answer, "competitor")["Circuit"].quote == "Competitors like Circuit"


@pytest.mark.parametrize(
    ("text", "language", "pains"),
    [
        # told again about what was just named: the first wording stands
        (
            "Owners hate counting stock by hand; one of them said it takes all day.",
            "en",
            {"counting stock by hand"},
        ),
        (
            "Couriers say the app lags on weak internet. He loses the route when the signal drops.",
            "en",
            {"app lags on weak internet"},
        ),
        # ... but another complaint by the same person is another pain
        (
            "Couriers say the app lags on weak internet. He also hates the new pricing.",
            "en",
            {"app lags on weak internet", "new pricing"},
        ),
        # a rival's drawback
        ("A few fleets switched from Onfleet because the pricing got too expensive.", "en", set()),
        ("У YCLIENTS есть предоплата, но владельцы считают его слишком сложным.", "ru", set()),
        (
            "Fleets that switched from Onfleet say the app lags in basements.",
            "en",
            {"app lags in basements"},
        ),
        # work by hand that is only measured, or only said how it is done
        ("Re-planning a route by hand takes 15 minutes for a dispatcher.", "en", set()),
        ("Напоминания клиентам отправляют вручную в WhatsApp.", "ru", set()),
        ("Owners count stock by hand every evening.", "en", {"owners count stock by hand"}),
    ],
)
def test_pains_are_the_segments_own_and_told_once(text, language, pains):
    assert set(_by_label(_extract(text, language), "pain")) == pains


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Risk: offline map tiles could push the app size over 200 MB.", "en"),
        ("Price is the main factor, she will not pay more than $20 a month.", "en"),
        ("Цена — главный фактор, больше 3000 рублей в месяц она платить не будет.", "ru"),
        ("Цена — главный фактор, бюджет на софт у них 20 тысяч рублей в месяц.", "ru"),
    ],
)
def test_thresholds_and_price_expectations_are_not_metrics(text, language):
    assert not _by_label(_extract(text, language), "metric")


def test_a_risk_right_after_a_goal_threatens_it():
    answer = _extract(
        "Our goal is to reduce a full stock count to 30 minutes. "
        "The risk is that cashiers will not adopt a new tool during rush hours."
    )
    assert (
        "threatens",
        "cashiers will not adopt a new tool",
        "reduce a full stock count to 30 minutes",
    ) in _relations(answer)


def test_a_number_measures_the_pain_of_its_own_clause_only():
    measured = _extract("Опрос: 45% репетиторов забывают отметить оплату урока.", "ru")
    assert any(r[0] == "measured_by" for r in _relations(measured))
    cause = _extract(
        "25% of couriers stop opening the app, and the top reason is the app hanging offline."
    )
    assert not any(r[0] == "measured_by" for r in _relations(cause))


_NO_VECTORS = pytest.mark.xfail(
    strict=True,
    reason="one problem in other words: English has no word vectors offline, and the Russian "
    "ones pair only near-synonyms (a schedule and a calendar are too far apart for them)",
)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        # one problem in other words, sharing its informative words
        ("the app lags on weak internet in basements", "weak internet makes the app lag", True),
        ("photo upload fails on 3G", "photos fail to upload on 3G", True),
        # one problem in other words with no informative word in common: missed offline (these
        # merged before only through concept groups written for these very conversations)
        pytest.param(
            "map freezes whenever there is no mobile signal",
            "app lags on weak internet in basements",
            True,
            marks=_NO_VECTORS,
        ),
        pytest.param(
            "календарь записей подвисает",
            "расписание мастеров тормозит на старом компьютере",
            True,
            marks=_NO_VECTORS,
        ),
        ("items run out of stock", "counting stock by hand", False),
        # a bare name and a narrowed one are ambiguous: precision first, a person merges them
        ("салоны", "салоны красоты", False),
        ("owners", "small shop owners", False),
        ("paper", "paper notebooks", False),
        # different groups, tools or problems
        ("couriers", "independent couriers", False),
        ("мастера", "частные мастера", False),
        ("couriers", "courier companies", False),
        ("managers", "store managers", False),
        ("Excel", "Google Sheets", False),
        ("email", "email templates", False),
        ("app lags on weak internet", "per-driver pricing got too expensive", False),
    ],
)
def test_offline_sameness(a, b, same):
    assert same_thing(a, b)[0] is same
    assert same_thing(b, a)[0] is same


# ----------------------------------------------------------------------------- recall


def test_recall_on_gold_conversations():
    found, total = _recall(GOLD)
    print(f"offline extractor recall on gold: {found}/{total} = {found / total:.3f}")
    assert found / total >= GOLD_RECALL_FLOOR


def test_recall_on_unseen_conversations():
    found, total = _recall(UNSEEN)
    print(f"offline extractor recall on unseen: {found}/{total} = {found / total:.3f}")
    assert found / total >= UNSEEN_RECALL_FLOOR


def test_the_project_is_never_its_own_alternative_or_competitor():
    """Reviews of WhatsApp name WhatsApp: in its own project that is the product, not a
    workaround or a rival, even when the project's name only repeats its address (so it makes
    no product node); in another product's project it is one."""
    alternative = "We coordinate the whole team in WhatsApp groups."
    competitor = "I switched from Spotify."

    def named(text: str, product: str, project_name: str = "") -> list[tuple[str, str]]:
        request = ExtractionRequest(
            text=text, language="en", product=product, project_name=project_name
        )
        return [
            (n.type, n.label)
            for n in extract_offline(request).nodes
            if n.type in ("alternative", "competitor")
        ]

    assert named(alternative, "RouteMate") == [("alternative", "WhatsApp")]
    assert named(competitor, "RouteMate") == [("competitor", "Spotify")]
    assert named(alternative, "WhatsApp") == []
    assert named(alternative, "", project_name="whatsapp") == []
    assert named(competitor, "", project_name="spotify") == []
    assert named("I use E-Bay for most things.", "", project_name="eBay") == []


def test_antivirus_said_not_installed_is_the_setup_not_a_pain():
    text = "Antivirus is not installed and the firewall is off."
    assert [n.label for n in _extract(text).nodes if n.type == "pain"] == []


def test_the_vpn_that_does_not_connect_is_a_pain():
    answer = _extract("The VPN does not connect after the update.")
    assert [n.label for n in answer.nodes if n.type == "pain"] == ["VPN does not connect"]


def test_another_editor_that_does_it_fast_is_a_competitor():
    answer = _extract("Big files take a minute to open. In Geany they open instantly.")
    assert [n.label for n in answer.nodes if n.type == "competitor"] == ["Geany"]


def test_another_product_doing_the_same_thing_fast_is_a_competitor():
    text = "Search takes about 40 seconds. Geary does the same search in two seconds."
    answer = _extract(text)
    assert [n.label for n in answer.nodes if n.type == "competitor"] == ["Geary"]


def test_the_product_someone_switched_to_is_a_competitor_but_a_mode_is_not():
    answer = _extract("Too many ads, I switched to Todoist.")
    assert [n.label for n in answer.nodes if n.type == "competitor"] == ["Todoist"]
    answer = _extract("Then I switched to Edit mode and it froze.")
    assert [n.label for n in answer.nodes if n.type == "competitor"] == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Since the last update the widget no longer refreshes.", "widget no longer refreshes"),
        ("When I open the settings the app crashes.", "app crashes"),
        ("Opening the file crashes the app.", "opening the file crashes the app"),
        ("The icon of the app disappears.", "icon of the app disappears"),
    ],
)
def test_a_pain_label_starts_at_its_subject_not_inside_a_fronted_phrase(text, pain):
    assert pain in [n.label for n in _extract(text).nodes if n.type == "pain"]

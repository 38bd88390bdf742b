"""The grammar the offline engine reads: negation, hypotheticals, praise, requests, fragments.

Examples are written for these tests in general terms; none is taken from the evaluation data.
"""

from __future__ import annotations

import pytest

from kg.language import analyse, content_lemmas, in_the_nominative, lemma_key
from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.feature_phrases import names_no_feature, not_a_feature_name, spared_spans
from kg.llm.offline.labels import (
    fragment_reason,
    gives_only_a_vague_verdict,
    judges_what_came_before,
    metric_label_problem,
    names_a_record_of_problems,
    names_only_an_area,
    points_back_at_a_problem,
    points_elsewhere,
    reads_as_english,
    states_a_clause,
)
from kg.llm.offline.markup import entity_spans, mask_markup, outside_entities, read_entities
from kg.llm.offline.non_problems import resolved_later, tells_only_since_when
from kg.llm.offline.pain_spans import first_clause_end
from kg.llm.offline.parts import names_a_device, names_a_language
from kg.llm.offline.requests import advice_spans
from kg.llm.offline.uses import operation_spans
from kg.llm.prompts.extraction_models import ExtractionRequest


def _nodes(text: str, language: str = "en") -> list[tuple[str, str]]:
    answer = extract_offline(ExtractionRequest(text=text, language=language, product=""))
    return [(n.type, n.label) for n in answer.nodes]


def _types(text: str, language: str = "en") -> set[str]:
    return {t for t, _ in _nodes(text, language)}


def test_tags_and_lemmas_in_both_languages():
    tokens = analyse("Editors can't export their drafts")
    assert [t.pos for t in tokens][:2] == ["NOUN", "AUX"]
    assert any(t.text == "n't" and t.pos == "PART" for t in tokens)
    assert {"editor", "export", "draft"} <= content_lemmas("Editors can't export their drafts")
    assert lemma_key("владельцы магазинов") == lemma_key("владелец магазина")
    assert lemma_key("owners of shops") == lemma_key("shop owner")


def test_a_capital_that_only_opens_a_sentence_makes_no_name():
    assert analyse("Receipts won't print. Photos vanish.")[0].pos == "NOUN"
    assert [t.pos for t in analyse("Receipts won't print. Photos vanish.")][-3] == "NOUN"
    assert analyse("I moved my notes to Trello")[-1].pos == "PROPN"
    assert "songs won't load" in _features("Songs won't load on the train.")


@pytest.mark.parametrize(
    "text",
    [
        "Nothing crashes anymore since the update.",
        "The export never fails for me.",
        "Если бы приложение зависало, я бы ушёл.",
        "If it ever crashed I would switch tools.",
        "В целом ничего не падает.",
    ],
)
def test_negated_and_hypothetical_problems_are_not_pains(text):
    assert "pain" not in _types(text, "ru" if text[0] in "ЕВ" else "en")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The calendar doesn't sync with my phone.", "en"),
        ("The editor keeps crashing when I paste a table.", "en"),
        ("Не открывается окно настроек после обновления.", "ru"),
        ("Терминал постоянно зависает при сборке проекта.", "ru"),
    ],
)
def test_stated_problems_are_pains_and_keep_their_negation(text, language):
    pains = [label for kind, label in _nodes(text, language) if kind == "pain"]
    assert pains, text
    if "n't" in text or text.startswith("Не"):
        assert any(p.lower().startswith(("не ", "doesn't")) or "n't" in p for p in pains)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please add a dark mode for the reader.", "dark mode"),
        ("I wish it had a weekly summary email.", "weekly summary email"),
        ("It would be great if you could export reports to PDF.", "export reports"),
        ("Добавьте экспорт отчётов в Excel.", "экспорт отчётов"),
        ("Хотелось бы видеть историю изменений.", "история изменений"),
    ],
)
def test_requests_in_the_forms_users_write_are_features(text, expected):
    features = [label for kind, label in _nodes(text, "ru" if text[0] in "ДХ" else "en")]
    assert any(expected.lower() in f.lower() for f in features), features


def test_a_user_story_gives_segment_feature_and_job():
    nodes = _nodes(
        "As a warehouse clerk, I want to scan pallets offline, so that I can work in the basement."
    )
    assert ("segment", "warehouse clerk") in nodes
    assert ("feature", "scan pallets offline") in nodes
    assert ("job", "work in the basement") in nodes


def test_praise_is_not_a_pain():
    assert "pain" not in _types("I love how simple and fast the checkout is, great job!")


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("https://example.org/issue/12", "a web address"),
        ("shop at example.com", "a web address"),
        ("|CPU|8 cores|", "a table row"),
        ("config.loader.sourceMap", "a file path or code name"),
        ("logs kept under /var/cache for days", "a file path or code name"),
        ("after the", "no content word"),
        ("after the last", "starts on 'after'"),
        ("teams that", "ends on 'that'"),
        ("how might teams", "starts on 'how'"),
        ("ошибка", "only says there is a problem, not which"),
    ],
)
def test_fragment_labels_are_named(label, reason):
    assert fragment_reason(label) == reason


def test_a_metric_label_holding_a_path_says_nothing_measured():
    assert metric_label_problem("restore took 3 hours from /srv/backup") != ""
    assert metric_label_problem("restore took 3 hours") == ""


@pytest.mark.parametrize(
    "label",
    [
        "dark mode",
        "export reports to PDF",
        "пользователи Windows",
        "import and/or export",
        "checkout on example.com does not load",
    ],
)
def test_whole_phrases_are_not_fragments(label):
    assert fragment_reason(label) == ""


def test_a_pain_label_keeps_the_site_it_names_whole():
    text = "Checkout on example.com does not load\n\nThe spinner turns forever."
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert "checkout on example.com does not load" in pains, pains


def test_markup_is_blanked_in_place_and_quotes_stay_verbatim():
    text = "Issue Type: <b>Bug</b>\nThe upload fails on large files. ![shot](https://x.io/a.png)"
    masked = mask_markup(text)
    assert len(masked) == len(text)
    assert "<b>" not in masked and "https" not in masked
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    assert answer.nodes
    for node in answer.nodes:
        assert node.quote in text
        assert "<" not in node.label and "http" not in node.label


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("The export button doesn't respond anymore.", "export button"),
        ("Since Tuesday my calendar widget keeps crashing.", "calendar widget"),
        ("We keep having trouble with the invoice templates.", "invoice templates"),
        ("What a confusing settings menu.", "settings menu"),
    ],
)
def test_the_part_a_problem_is_said_of_is_a_feature(text, part):
    assert ("feature", part) in _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "My manager can't log in.",  # a person, not a part of the product
        "The app doesn't open.",  # the product as a whole
        "It keeps crashing.",  # a pronoun
        "If the weekly digest ever failed I would lose the day.",  # hypothetical
    ],
)
def test_people_the_product_and_pronouns_are_not_parts(text):
    features = [label for kind, label in _nodes(text) if kind == "feature"]
    assert not any(w in label for label in features for w in ("manager", "app", "digest"))
    assert all(label != "it" for label in features)


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("В настройках нет кнопки экспорта.", "ru", "нет кнопки экспорта"),
        ("Не удалось сохранить файл на диск.", "ru", "не удалось сохранить файл"),
        ("Синхронизация перестаёт работать через час.", "ru", "перестаёт работать"),
        ("The sync stopped working after the update.", "en", "stopped working"),
        ("После обновления сбрасываются все настройки.", "ru", "сбрасываются все настройки"),
        ("The editor doesn't see my installed packages.", "en", "doesn't see"),
    ],
)
def test_absence_failure_and_a_function_that_ceased_are_pains(text, language, words):
    pains = [label for kind, label in _nodes(text, language) if kind == "pain"]
    assert any(words in label.lower() for label in pains), pains


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("В целом нет проблем с экспортом.", "ru"),  # a problem said to be absent
        ("Half of the drivers stop opening the app in winter.", "en"),  # what people do
        ("Помогите пожалуйста с решением проблемы.", "ru"),  # asks for a fix
    ],
)
def test_absent_problems_behaviour_and_pleas_are_not_pains(text, language):
    assert not [label for kind, label in _nodes(text, language) if kind == "pain"]


def test_a_pain_label_drops_the_greeting_it_opens_with():
    pains = [
        label for kind, label in _nodes("Добрый день подскажите выдает ошибку при запуске.", "ru")
    ]
    assert pains and not any(label.lower().startswith("добрый") for label in pains)


def _features(text: str) -> set[str]:
    return {label for t, label in _nodes(text) if t == "feature"}


def test_operations_on_the_app_are_features_even_as_bare_verbs():
    assert "reinstall" in _features("I had to reinstall it twice and it is still awful.")
    assert "update" in _features("The latest update is terrible.")
    # the part an operation is said of belongs to the same label
    assert "photos won't load" in _features("My photos won't load anymore.")
    # "down load" is getting the app, not one of its functions
    assert not any("load" in f for f in _features("I down loaded it yesterday and love it."))


def test_an_operation_takes_the_thing_it_acts_on():
    features = _features("Now it only reloads the oldest comments in the thread.")
    assert "reloads the oldest comments" in features
    assert "comments" not in features  # one feature, not the verb and its object apart
    # a noun after a determiner is no verb; a device or the app itself is no object
    assert "update" in _features("Sadly this update broke the widgets.")
    text = "You have to restart my tablet first."
    assert [text[s:e] for s, e in operation_spans(text, (0, len(text)))] == ["restart"]


def test_a_light_verb_idiom_takes_the_part_as_its_object():
    # "keep track of" acts as one verb: the feature is what is tracked, with the verb
    features = _features("Best thing is that I can use it to keep track of my playlists.")
    assert features == {"keep track of my playlists"}
    assert _features("Good for taking care of the calendar when traveling.") == {
        "taking care of the calendar"
    }


def test_verbs_sharing_one_object_each_take_it_even_after_a_lead_in_verb():
    # "add" also leads a request in ("add a timer"); joined to another verb it is a verb
    assert _features("I can't sort and add old recordings, please help.") == {
        "sort old recordings",
        "add old recordings",
    }
    assert _features("It lets you tag and archive invoices.") == {
        "tag invoices",
        "archive invoices",
    }


def test_what_is_joined_to_a_use_is_one_more_with_the_words_they_share():
    assert {"jazz", "opera"} <= _features("I enjoy jazz and opera but not the ads.")
    assert _features("It helps me keep up with neighbours and colleagues.") == {
        "keep up with neighbours",
        "keep up with colleagues",
    }
    # each is named without the quality they share ("the convenience of")
    assert _features("I love the convenience of cooking and baking with it.") == {
        "cooking",
        "baking",
    }
    # a new clause after "and" is not a second use
    assert _features("I love the app and the price is fair.") == set()


def test_a_phrasal_operation_ends_on_its_particle_and_takes_its_object():
    # the particle of "log in" is no preposition left without its noun
    assert _features("It keeps saying it is logging in but it never logs in.") == {
        "logging in",
        "logs in",
    }
    assert _features("The app will not let me sign up.") == {"sign up"}
    assert _features("Yesterday I logged out my profile by accident.") == {"logged out my profile"}
    assert fragment_reason("logging in") == ""
    assert fragment_reason("a list of") == "ends on 'of'"


def test_a_first_word_before_a_finite_verb_is_its_subject_not_an_imperative():
    assert analyse("Update takes ages.")[0].pos == "NOUN"
    assert analyse("Save the file.")[0].pos == "VERB"
    # an adjective never takes a determiner: "refreshing the list" is the operation
    assert _features("Export takes ages, and just refreshing the list takes longer.") == {
        "export",
        "refreshing the list",
    }


def test_the_noun_of_a_complex_preposition_names_no_part():
    assert _features("I had to clear the cache in order to make it work again.") == set()
    assert _features("The order page is awful.") == {"order page"}


def test_a_device_is_not_a_feature():
    features = _features("I love using the calendar on my Kindle Fire HD.")
    assert any("calendar" in f for f in features)
    assert not any("kindle" in f.lower() for f in features)
    assert names_a_device("iPhone 6") and names_a_device("HTC mobile")
    assert not names_a_device("phone calls")


@pytest.mark.parametrize(
    "text",
    [
        "I regret paying for the software at all.",
        "They keep improving the product every month.",
        "Sadly I cannot recommend buying this program.",
        "I can just use the web version on my laptop.",
    ],
)
def test_what_is_done_to_the_whole_product_names_no_feature(text):
    words = ("software", "product", "application", "version")
    assert not any(word in f for f in _features(text) for word in words)


@pytest.mark.parametrize(
    "text", ["Honestly I love tasko.", "I really hate pixmo", "A handy app for snapgram on trips."]
)
def test_a_name_written_in_lower_case_is_no_feature(text):
    assert not _features(text)


def test_a_word_out_of_the_dictionary_in_a_verb_slot_is_still_a_use():
    assert "reschedle" in _features("Really easy to reschedle.")


def test_what_someone_was_doing_names_no_feature():
    assert not _features("I was walking my dog and it worked great.")
    assert "taking quick notes" in _features("I love taking quick notes in it.")


def test_a_general_verb_said_of_the_product_itself_names_no_feature():
    assert not _features("I cannot get it to start after the reboot.")
    assert "send them to any printer" in _features("You can send them to any printer.")


def test_a_verb_of_thinking_names_no_feature():
    features = _features("I can't figure out why it keeps asking, but I can export reports.")
    assert features == {"export reports"}


def test_like_as_a_comparison_names_no_feature():
    assert not any("winamp" in f.lower() for f in _features("It looks like Winamp, sadly."))


def test_a_pain_that_only_names_where_gives_way_to_the_specific_one():
    text = "Проблема с плагинами\n\nПосле обновления плагины не запускаются."
    pains = [label for t, label in _nodes(text, "ru") if t == "pain"]
    assert pains and not any(p.lower().startswith("проблема") for p in pains)
    # alone, it is the only pain the message states and stays
    assert names_only_an_area("problem with the sync")
    assert not names_only_an_area("sync does not work")


def test_a_guess_at_the_kind_of_problem_gives_way_to_the_symptom():
    text = "The sidebar does not open\n\nThere seems to be a font problem."
    assert [label for kind, label in _ticket(text) if kind == "pain"] == ["sidebar does not open"]
    assert names_only_an_area("it appears to be a font issue")


@pytest.mark.parametrize(
    "told",
    [
        "Someone who knows the code should file separate bugs for these.",
        "All the other related bugs were closed, see bug 1234.",
        "As mentioned in bug 4711.",
    ],
)
def test_what_happens_to_other_tickets_is_no_fault_of_the_product(told):
    pains = [label for kind, label in _ticket(f"Menu broken\n\n{told}") if kind == "pain"]
    assert pains == ["menu broken"], pains
    told_ru = "Меню сломано\n\nКак описано в баге 4711."
    assert [label for kind, label in _ticket(told_ru, "ru") if kind == "pain"] == ["меню сломано"]


def test_a_recommendation_heading_takes_the_whole_statement():
    text = "*Recommendation:* Show the expected waiting time on the order page (see notes)"
    assert "Show the expected waiting time on the order page" in _features(text)


def _pains(text: str, language: str = "en") -> list[str]:
    return [label for kind, label in _nodes(text, language) if kind == "pain"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("The reader wouldn't open after the last update.", "wouldn't open"),  # a fact, not "if"
        ("I could not finish my order at checkout.", "could not finish my order"),
        ("I can't see the attachments anymore.", "can't see the attachments"),  # inability
        ("The player doesnt save my progress.", "doesnt save my progress"),  # no apostrophe
        ("Way too many ads in the free plan.", "ads in the free plan"),  # an excess
        ("I dont like the new layout at all.", "dont like the new layout"),  # negated liking
        ("The chapters stop being displayed after a while.", "stop being displayed"),
        ("I'm sorry but the editor is just garbage.", "editor is just garbage"),  # its own piece
    ],
)
def test_complaints_in_the_forms_reviews_write_are_pains(text, words):
    pains = _pains(text)
    assert any(words in label.lower() for label in pains), pains


@pytest.mark.parametrize(
    "text",
    [
        "No problems downloading or using the app.",  # "no" negates the problems only
        "Easy to set up and doesnt crash!",
        "I have yet to see a glitch with it.",
        "Can't complain, it does what it says.",  # an idiom of praise
        "Couldnt be happier I downloaded this reader.",
        "Useful in too many ways to list.",
        "I see others are having the same problem.",  # says whose, not what
        "Long story short, this app was the problem.",
        "Great place to find hard to find records.",  # the problem word sits in praise
    ],
)
def test_praise_idioms_and_vague_problems_are_not_pains(text):
    assert not _pains(text)


def test_a_pain_said_in_the_title_and_again_in_the_body_is_one_pain():
    text = "Нет кнопки экспорта в меню Файл\n\nОткройте меню Файл: нет кнопки экспорта."
    pains = _pains(text, "ru")
    assert len(pains) == 1 and "нет кнопки экспорта в меню файл" in pains[0].lower(), pains
    # two different failures that share "doesn't work" stay two
    text = "Search doesn't work. The printer preview doesn't work either."
    assert len(_pains(text)) == 2


def test_code_names_are_blanked_and_never_a_label():
    text = "Set editor.formatOnSave to false via command:workbench.action.openSettings?%5B%22x%22"
    masked = mask_markup(text)
    assert "formatOnSave" not in masked and "%5B" not in masked and len(masked) == len(text)
    labels = [label for _, label in _nodes(f"The formatter hangs for 5 minutes. {text}")]
    assert not any("." in label or "%" in label for label in labels), labels


def test_a_head_word_inside_a_product_name_is_no_segment():
    assert "segment" not in _types("I use your Visual Studio Code editor every day.")


def test_log_lines_and_stack_frames_are_machine_output_not_statements():
    log = (
        "Расширение падает при запуске\n"
        "[2023-01-13 06:16:30.123] [exthost] [error] Activating extension failed\n"
        "[error] Cannot find module 'vscode'\n"
        "    at Object.<anonymous> (c:\\ext\\out\\main.js:10:5)\n"
        "Пользователи Windows не могут установить расширение."
    )
    masked = mask_markup(log)
    assert "Activating" not in masked and "Cannot find" not in masked and "main.js" not in masked
    assert masked.endswith("Пользователи Windows не могут установить расширение.")
    pains = _pains(log, "ru")
    assert not any("activating" in p.lower() or "find module" in p.lower() for p in pains)
    assert any("не могут установить расширение" in p for p in pains), pains


def test_a_pain_label_drops_the_question_it_is_asked_in():
    pains = _pains("Подскажите пожалуйста, почему у меня не работает автодополнение?", "ru")
    assert pains == ["не работает автодополнение"], pains


@pytest.mark.parametrize(
    ("text", "spared"),
    [
        ("Great for planning trips without calling the travel agent.", "travel agent"),
        ("So much quicker than keeping paper diaries everywhere.", "paper diaries"),
        ("It let me get rid of my binders and loose receipts.", "binders"),
        ("Handy, so I don't have to carry a laptop around.", "laptop"),
    ],
)
def test_what_the_product_spares_its_user_is_no_feature(text, spared):
    features = [label for kind, label in _nodes(text) if kind == "feature"]
    assert not any(spared in label for label in features), features


def test_other_than_that_is_no_comparison():
    assert spared_spans("Other than that the sync is great.", (0, 34)) == []


@pytest.mark.parametrize("label", ["options", "varied options", "functionality of this app"])
def test_a_word_for_features_in_general_names_no_feature(label):
    assert names_no_feature(label)


@pytest.mark.parametrize("label", ["export options", "option to mute threads", "dark mode"])
def test_a_feature_word_with_what_it_is_names_one(label):
    assert not names_no_feature(label)


def test_an_option_is_named_with_what_it_does():
    features = [label for _, label in _nodes("My favourite is the option of muting group chats.")]
    assert "option of muting group chats" in features
    assert "option for exporting" in [
        label for _, label in _nodes("I use the option for exporting.")
    ]


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("A handy app for budget planning.", "budget planning"),
        ("Great for sharing recipes with family.", "sharing recipes"),
        ("Really easy to navigate.", "navigate"),
        ("Nice for viewing and bidding.", "bidding"),
    ],
)
def test_what_the_product_is_good_for_is_a_feature(text, use):
    assert ("feature", use) in _nodes(text)


def test_the_people_a_product_is_good_for_are_no_feature():
    assert "feature" not in _types("Great for busy parents.")


@pytest.mark.parametrize(
    "text",
    [
        "The weather is terrible today.",
        "Looks like a common problem.",
        "My coffee break was awful.",
    ],
)
def test_what_a_problem_is_said_of_is_a_part_only_when_a_word_names_one(text):
    assert "feature" not in _types(text)


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("doesnt lag", "starts on a negation"),
        ("won't sync", "starts on a negation"),
        ("sharing photosEverything else", "words run together"),
        ("TWO WEEKS AGO", "a time, not a thing"),
        ("a day later", "a time, not a thing"),
    ],
)
def test_what_cannot_name_a_feature(label, reason):
    assert not_a_feature_name(label) == reason


@pytest.mark.parametrize("label", ["WhatsApp calls", "photo editing", "iPhone widget"])
def test_camel_case_names_can_name_a_feature(label):
    assert not_a_feature_name(label) == ""


@pytest.mark.parametrize(
    "text",
    ["This tool is the worst ever.", "So irritating!", "Utterly useless.", "The tool is useless."],
)
def test_a_verdict_on_the_whole_product_is_no_pain(text):
    assert "pain" not in _types(text)


@pytest.mark.parametrize(
    "text",
    ["I hate the new layout.", "The editor is useless for long documents.", "Sync is awful."],
)
def test_a_verdict_on_something_specific_is_a_pain(text):
    assert "pain" in _types(text)


@pytest.mark.parametrize(
    "text",
    [
        "If you get errors on start, restart the phone.",
        "So if it fails for you, use the web version.",
        "I read the news on my coffee break.",
        "The app is fine, I'm hanging in there.",
    ],
)
def test_a_supposition_advice_or_idiom_is_no_pain(text):
    assert "pain" not in _types(text)


def test_a_problem_after_the_condition_is_a_pain():
    assert "pain" in _types("If I open a large file it freezes.")


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("It really helps keep track of my expenses.", "keep track of my expenses"),
        ("A great app to plan weekly meals.", "plan weekly meals"),
    ],
)
def test_what_the_product_helps_with_is_a_feature(text, use):
    assert ("feature", use) in _nodes(text)


def test_verbs_that_share_an_object_each_name_a_feature():
    features = {label for kind, label in _nodes("It lets me sort and filter invoices.")}
    assert {"sort invoices", "filter invoices"} <= features


def test_a_list_of_uses_ends_where_its_conjunction_does():
    labels = [label for _, label in _nodes("Easy to sort, tag and share, Works offline too.")]
    assert not any("Works" in label for label in labels)


def test_a_title_that_sums_up_the_body_gives_way_to_it():
    text = "Клавиатура не работает\n\nНе работает клавиша Enter в редакторе, только в терминале."
    assert _pains(text, "ru") == ["не работает клавиша Enter в редакторе"]
    # a title in one language above a body in another
    text = "Settings not saved\n\nПосле перезапуска сбрасываются все настройки редактора."
    assert len(_pains(text, "ru")) == 1
    # a first line that is not set off as a title is a statement of its own
    text = "Export crashes on large files.\nThe search is slow too."
    assert len(_pains(text)) == 2


@pytest.mark.parametrize(
    ("text", "language"),
    [("Проблема с печатью", "ru"), ("Sidebar problem", "en"), ("Issue with login", "en")],
)
def test_a_problem_named_only_by_its_area_is_no_pain(text, language):
    assert "pain" not in _types(text, language)


def test_an_error_named_by_its_area_is_a_symptom():
    assert "pain" in _types("Ошибка сборки", "ru")


def test_the_moment_a_failure_happens_is_no_job():
    assert "job" not in _types("When trying to open the project, the window freezes.")


@pytest.mark.parametrize(
    ("text", "language", "competitor"),
    [
        ("We use Linear instead of Jira.", "en", True),
        ("It prints raw code instead of Chart.", "en", False),
        ("Отчёт печатает исходный код вместо Chart.", "ru", False),
    ],
)
def test_instead_of_names_a_rival_only_when_someone_picks_the_other(text, language, competitor):
    assert ("competitor" in _types(text, language)) is competitor


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The preview shows raw markup instead of the rendered page.", "en"),
        ("Консоль выводит знаки вопроса вместо букв.", "ru"),
        ("Курсор не позволяет выделять текст.", "ru"),
        ("After every update the extensions have to be installed again.", "en"),
    ],
)
def test_wrong_results_blocked_actions_and_work_done_again_are_pains(text, language):
    assert "pain" in _types(text, language)


@pytest.mark.parametrize(
    "text",
    ["I check prices on my phone instead of waiting in line.", "We pay for Zoom instead of Meet."],
)
def test_a_choice_or_a_chore_spared_is_no_wrong_result(text):
    assert "pain" not in _types(text)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Не могу добавить расширение в проект", "ru"),
        ("При попытке добавить файл выдаёт ошибку", "ru"),
    ],
)
def test_a_failed_attempt_is_a_pain_not_a_request(text, language):
    assert _types(text, language) == {"pain"}


@pytest.mark.parametrize(
    ("text", "language", "pain"),
    [
        ("Нажимаю на кнопку и ничего не происходит", "ru", True),
        ("I click Run and nothing happens.", "en", True),
        ("This doesn't happen on my laptop.", "en", False),
    ],
)
def test_nothing_happening_is_a_failure(text, language, pain):
    assert ("pain" in _types(text, language)) is pain


# ----------------------------------------------------------------------------- research write-ups


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Drivers have little visibility into the route once it is sent.", "little visibility"),
        ("Delivery estimates are rarely accurate.", "estimates are rarely accurate"),
        ("Order history not shown on the account page.", "not shown on the account page"),
        ("Onboarding takes a long time.", "takes a long time"),
        ("There are inconsistencies in the billing export between regions.", "billing export"),
    ],
)
def test_difficulties_as_research_write_ups_state_them_are_pains(text, words):
    assert any(words in label.lower() for label in _pains(text)), _nodes(text)


def test_a_label_cut_at_the_word_limit_finishes_its_compound_noun():
    text = "Nurses were unable to quickly find any of the shift schedule pages."
    pains = _pains(text)
    assert pains and pains[0].endswith("shift schedule pages"), pains


@pytest.mark.parametrize(
    "text",
    [
        "Have you ever lost a file during an upload?",
        "Did you find the settings confusing?",
        "None of the pharmacists we met complained about the label printer.",
        "* 2 - Minor display issue: fix when there is time",
    ],
)
def test_prompts_denials_and_legend_terms_are_not_pains(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    "text",
    ["How come I can't open my saved drafts?", "Why did you make it so I can't open my drafts?"],
)
def test_a_complaint_in_a_questions_form_is_still_a_pain(text):
    assert _pains(text)


@pytest.mark.parametrize("label", ["were confused", "is very slow", "to the settings page"])
def test_labels_without_their_subject_are_fragments(label):
    assert fragment_reason(label).startswith("starts on")


def test_later_instructions_of_a_recommendation_paragraph_are_requested():
    text = (
        "Buyers missed the delivery fee.\n\n"
        "Recommendation: show the fee on the cart page. Consider offering a fee estimate "
        "before sign-up. Buyers liked the old layout."
    )
    nodes = extract_offline(ExtractionRequest(text=text, product="")).nodes
    requested = {n.label: n.quote for n in nodes if n.type == "feature"}
    label = "consider offering a fee estimate before sign-up"
    assert label in requested, requested
    assert requested[label].startswith("Recommendation:")  # the quote shows it is recommended
    assert not any("liked" in lbl for lbl in requested)
    # the same instruction outside a recommendation paragraph is not taken as requested
    alone = extract_offline(ExtractionRequest(text="Consider offering a fee estimate.", product=""))
    assert not any(n.label == "consider offering a fee estimate" for n in alone.nodes)


def test_a_predicate_keeps_the_pronoun_it_is_said_of():
    assert "it is a confusing update" in _pains(
        "Either my phone is old or it is a confusing update."
    )


def test_a_part_is_named_with_the_verb_that_takes_it():
    features = {label for kind, label in _nodes("I love that I can rename old playlists.")}
    assert "rename old playlists" in features and "playlists" not in features


def test_a_part_name_used_as_a_verb_keeps_what_completes_it():
    features = {label for kind, label in _nodes("I love that it shares to any folder.")}
    assert "shares to any folder" in features


def test_each_item_of_an_enumeration_of_uses_is_a_feature():
    text = "I use it for everything: shopping lists, recipes, receipts and travel plans."
    features = {label for kind, label in _nodes(text) if kind == "feature"}
    assert {"recipes", "receipts", "travel plans"} <= features


@pytest.mark.parametrize(
    "text",
    [
        "I love it, I use it with my husband, my kids, my sister and my friends.",
        "Great for everything from my old files, to work and home.",
    ],
)
def test_an_enumeration_of_people_or_a_range_names_no_feature(text):
    assert "feature" not in _types(text)


def test_so_with_an_adjective_says_how_much_and_does_not_end_the_pain():
    assert any("so slow" in label for label in _pains("The search is so slow."))


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("refunds (within 3 days", "a bracket left open or closed without opening"),
        ("the menu closes] too early", "a bracket left open or closed without opening"),
        ("the form resets itself./Later the page", "runs across a sentence end"),
        ("счёт не приходит. Потом клиент", "runs across a sentence end"),
    ],
)
def test_labels_cut_across_their_text_are_fragments(label, reason):
    assert fragment_reason(label) == reason
    assert metric_label_problem(label) == reason


@pytest.mark.parametrize("label", ["12 days", "90%", "3 недели", "$15 a week", "4 times", "3 раза"])
def test_a_metric_of_a_quantity_alone_does_not_say_what_it_counts(label):
    assert metric_label_problem(label) == "a quantity only, not what it counts"


@pytest.mark.parametrize(
    "label",
    [
        "12% of refunds arrive late",
        "checkout takes 4 minutes",
        "Dr. Lee saw 9 patients",
        "3 недели на возврат денег",
    ],
)
def test_a_metric_that_says_what_it_counts_passes(label):
    assert metric_label_problem(label) == ""


@pytest.mark.parametrize(
    ("label", "date"),
    [
        ("the page was last edited on 4 May 2021", True),
        ("the plugin was updated October 9, 2022", True),
        ("страница обновлялась 3 марта 2021 года", True),
        ("в 2020 году цены не менялись", True),
        # a date beside a quantity, or a number that is no year, still measures
        ("sign-ups fell 30% since May 2021", False),
        ("2000 clinics signed up", False),
        ("в 2020 году выручка выросла на 15%", False),
    ],
)
def test_a_metric_that_only_tells_a_date_measures_nothing(label, date):
    reason = metric_label_problem(label)
    assert (reason == "a date, not a quantity measured") is date, reason


@pytest.mark.parametrize(
    "text",
    [
        "- Brief the user on a case in which they will file a (complex) claim with the "
        "Department of Labor. The median response time for a complex claim to Labor is 210 days.",
        "- Walk the user through steps. Each begins with a note on a change in state: "
        "new (today), open (2 weeks), closed (40 days).",
    ],
)
def test_no_metric_is_a_bare_quantity_or_a_cut_list(text):
    for node in extract_offline(ExtractionRequest(text=text, product="")).nodes:
        assert not metric_label_problem(node.label), node.label


@pytest.mark.parametrize(
    ("label", "points"),
    [
        ("fix this", True),
        ("moving these should wait for the next release", True),
        ("plan interviews that cover the following", True),
        ("make this app load faster", False),
        ("add a sort like this one", False),
        ("a filter that hides old posts", False),
    ],
)
def test_a_wish_that_only_points_elsewhere_is_noticed(label, points):
    assert points_elsewhere(label) is points


def test_requests_that_only_point_elsewhere_are_not_features():
    text = "Please fix this. Moving these should be given low priority. Please add sorting by date."
    nodes = extract_offline(ExtractionRequest(text=text, product="")).nodes
    wanted = {n.label for n in nodes if n.type in ("feature", "job", "goal")}
    assert not any(points_elsewhere(label) for label in wanted), wanted
    assert "sorting by date" in wanted


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("It has a lot of popups these days.", "popups"),
        ("The export option comes in handy at night.", "export option"),
    ],
)
def test_a_part_is_named_without_a_feeling_word(text, part):
    assert part in {label for kind, label in _nodes(text) if kind == "feature"}


def test_a_verb_with_a_plain_object_is_a_use_without_a_feeling_word():
    features = {label for kind, label in _nodes("On weekends I listen to podcasts in the car.")}
    assert "listen to podcasts" in features


@pytest.mark.parametrize(
    "text",
    ["Most days I forget everything at home.", "On weekends I email PayPal from the car."],
)
def test_a_neutral_verb_with_a_general_word_or_a_name_names_no_use(text):
    assert "feature" not in _types(text)


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("There are hardly any new films this month.", "films"),
        ("Premium is worth every penny.", "premium"),
        ("Half the episodes of that series stop halfway.", "episodes"),
    ],
)
def test_the_content_an_app_offers_and_its_paid_tier_are_features(text, part):
    assert part in {label.lower() for kind, label in _nodes(text) if kind == "feature"}


# ----------------------------------------------------------------------------- bug reports


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Подсказки не появляются в редакторе.", "ru"),
        ("Автодополнение не предлагает варианты для импортов.", "ru"),
        ("Тема не применяется к боковой панели.", "ru"),
        ("Файл не сохранён после закрытия вкладки.", "ru"),
        ("Терминал ничего не выводит после запуска скрипта.", "ru"),
        ("The debugger does not stop at breakpoints.", "en"),
        ("The sidebar doesn't appear after a restart.", "en"),
    ],
)
def test_a_thing_failing_to_act_is_a_pain_whatever_the_verb(text, language):
    assert "pain" in _types(text, language), _nodes(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Не знаю, почему так происходит.", "ru"),
        ("Я не понимаю, как это настроить.", "ru"),
        ("Мы не используем расширения.", "ru"),
        ("Не закрывайте окно во время установки.", "ru"),
        ("Переустановил, но ничего не изменилось.", "ru"),
        ("Редактор больше не зависает после обновления.", "ru"),
        ("I don't know why this happens.", "en"),
        ("Don't close the window during the install.", "en"),
        ("It doesn't matter which folder I open.", "en"),
        ("The app doesn't hurt my battery at all.", "en"),
    ],
)
def test_what_the_writer_knows_or_does_advice_and_no_effect_are_no_failures(text, language):
    assert "pain" not in _types(text, language), _nodes(text, language)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("При попытке открыть папку ничего не происходит.", "при попытке открыть папку"),
        ("В настройках ничего про это не сказано.", "в настройках"),
    ],
)
def test_a_russian_pain_label_keeps_the_preposition_of_its_first_phrase(text, label):
    pains = _pains(text, "ru")
    assert pains and pains[0].startswith(label), pains


def test_a_label_window_never_opens_inside_a_phrase():
    text = (
        "Checking it again - it turned out that all the other long file names for some "
        "reason are simply not shown by the explorer."
    )
    pains = _pains(text)
    assert pains and not pains[0].startswith(("reason", "some")), pains


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("Вместо русских букв редактор показывает квадраты.", "ru", "показывает квадраты"),
        ("Instead of the rendered page, the preview shows raw markup.", "en", "shows raw markup"),
        ("Также не видно изменений в панели версий.", "ru", "не видно изменений"),
    ],
)
def test_a_wrong_result_told_first_and_what_cannot_be_seen_are_pains(text, language, words):
    assert any(words in label for label in _pains(text, language)), _nodes(text, language)


def test_what_replaces_a_thing_already_told_of_restates_its_pain():
    text = "Настройка темы игнорируется. Вместо неё показывается тема по умолчанию."
    assert len(_pains(text, "ru")) == 1, _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Раньше терминал не открывался, но после переустановки всё в порядке.", "ru"),
        ("Терминал не открывался, но теперь всё работает.", "ru"),
        ("The terminal didn't open, but after a reinstall it works fine.", "en"),
    ],
)
def test_a_problem_the_sentence_says_is_over_is_no_pain(text, language):
    assert "pain" not in _types(text, language), _nodes(text, language)


def test_a_problem_still_there_after_a_fix_is_a_pain():
    text = "Терминал не открывался, но после переустановки так и не заработал."
    assert "pain" in _types(text, "ru"), _nodes(text, "ru")


def test_a_form_question_with_its_answer_is_no_statement():
    text = "Happens when all plugins are turned off?: Yes"
    assert mask_markup(text).strip() == ""
    assert _nodes(text) == []


@pytest.mark.parametrize(
    ("text", "language", "pain"),
    [
        # a site named by its address is what the statement is about
        (
            "Не удаётся подключиться к mail.example.org в клиенте 4.1.",
            "ru",
            "не удаётся подключиться к mail.example.org",
        ),
        (
            "Cannot log in to accounts.example.com since the update.",
            "en",
            "cannot log in to accounts.example.com since the update",
        ),
        # a code name is no label's word, and the colon after it still ends the clause
        ("Ошибка в python.analysis.extraPaths: путь не находится.", "ru", "путь не находится"),
    ],
)
def test_a_sites_address_stays_in_the_label_a_code_name_does_not(text, language, pain):
    assert _pains(text, language) == [pain], _nodes(text, language)


def test_a_site_and_page_heading_is_no_part_of_the_label():
    text = "shop.example.com - checkout - Total is shown twice\n\nSteps: open the cart."
    kind, label = _ticket(text)[0]
    assert (kind, label.lower()) == ("pain", "total is shown twice")


def test_an_address_with_a_path_is_masked_like_a_link():
    text = "See files.example.com/archive for the logs."
    assert "files.example.com" not in mask_markup(text)


def test_a_quoted_message_stays_inside_its_clause():
    text = 'Не могу сделать коммит, выдаёт ошибку "fatal: access denied".'
    pains = _pains(text, "ru")
    assert len(pains) == 1 and pains[0].startswith("не могу сделать коммит"), pains


def test_a_lone_latin_word_in_russian_is_a_name():
    tags = {t.text: t.pos for t in analyse("Проблема с git и плагином Color Picker")}
    assert tags["git"] == tags["Color"] == tags["Picker"] == "PROPN"
    text = "Проблема с git\n\nНе могу сделать коммит."
    assert _pains(text, "ru") == ["не могу сделать коммит"]


def test_a_version_number_is_one_token_and_ends_no_phrase():
    words = [t.text for t in analyse("до версии 1.86 пропала")]
    assert words == ["до", "версии", "1.86", "пропала"]
    pains = _pains("После обновления до версии 2.14 пропала подсветка кода в файлах Lua.", "ru")
    assert pains and "пропала подсветка кода" in pains[0] and "14" not in pains[0], pains


@pytest.mark.parametrize(
    "text",
    [
        'Появляется окно с ошибкой "Cannot open the module".',
        "При запуске задачи выдаёт ошибку: Task failed to fetch. Retry failed",
    ],
)
def test_the_report_of_an_error_is_the_pain_not_the_message_it_quotes(text):
    pains = _pains(text, "ru")
    assert len(pains) == 1 and pains[0].startswith(("появляется окно", "при запуске")), pains


def test_the_machine_a_report_runs_on_is_no_metric():
    text = "Редактор думает около 3 минут. Процессор: Intel Core i7, ОЗУ 16 ГБ."
    metrics = [label for kind, label in _nodes(text, "ru") if kind == "metric"]
    assert metrics == ["редактор думает около 3 минут"], metrics


def test_a_state_wanted_of_something_else_is_no_job():
    assert "job" not in _types("Окно пропадает, и приходится жать Esc, чтобы оно появилось.", "ru")
    assert "job" in _types("Я открываю терминал, чтобы запустить сборку проекта.", "ru")


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("The Run button does nothing in .vue files.", "en", "does nothing in .vue files"),
        ("Actual: nothing happens, no warnings in the log.", "en", "nothing happens"),
    ],
)
def test_doing_nothing_is_a_failure_and_no_errors_is_none(text, language, words):
    pains = _pains(text, language)
    assert len(pains) == 1 and pains[0].endswith(words), _nodes(text, language)


def test_a_check_in_a_condition_is_no_pain():
    text = "Если открыть файл вручную, текст там есть."
    assert "pain" not in _types(text, "ru"), _nodes(text, "ru")


def test_rights_something_runs_with_are_no_segment():
    assert "segment" not in _types("Запускал от имени администратора, то же самое.", "ru")
    assert "segment" not in _types("I renamed it in the explorer and the tab kept the old name.")


def test_a_title_that_states_its_fault_stands_beside_what_the_body_tells_of_it():
    # the body's sentence names the title's matter, its pain tells what happens: both stand
    text = (
        "Не могу подключиться к серверу Gitea\n\nПри попытке подключиться к Gitea открывается "
        "браузер, но после подтверждения ничего не происходит."
    )
    assert _pains(text, "ru") == [
        "не могу подключиться к серверу Gitea",
        "после подтверждения ничего не происходит",
    ], _nodes(text, "ru")
    # a title that only names the matter still gives way to the body's statement
    text = (
        "Проблема с Gitea\n\nПри попытке подключиться к Gitea открывается браузер, но после "
        "подтверждения ничего не происходит."
    )
    assert _pains(text, "ru") == ["после подтверждения ничего не происходит"], _nodes(text, "ru")


@pytest.mark.parametrize(
    "text",
    [
        "Кнопка сохранения неактивна.",
        "Становится нечёткий шрифт во всём меню.",
        "Не удобно искать нужные настройки.",
        "Подсказка показывает некорректный тип переменной.",
    ],
)
def test_a_russian_quality_denied_with_its_ne_is_a_pain(text):
    assert "pain" in _types(text, "ru"), _nodes(text, "ru")


@pytest.mark.parametrize("text", ["Несколько вкладок открыто.", "Неплохой редактор для заметок."])
def test_a_word_that_only_starts_like_ne_is_no_pain(text):
    assert "pain" not in _types(text, "ru"), _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "language", "label"),
    [
        ('I get the error "Access denied to the folder" when saving.', "en", '"Access denied'),
        ('Не работает клавиша "Ё" в редакторе.', "ru", '"Ё"'),
    ],
)
def test_a_label_holds_a_quotation_whole(text, language, label):
    pains = _pains(text, language)
    assert len(pains) == 1 and label in pains[0] and pains[0].count('"') == 2, pains


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("I expected the outline to list methods, but only classes are shown.", "en", "shown"),
        ("Ожидал, что откроется список, а открывается пустое окно.", "ru", "пустое окно"),
    ],
)
def test_what_happened_against_what_was_expected_is_a_pain(text, language, words):
    pains = _pains(text, language)
    assert len(pains) == 1 and words in pains[0], _nodes(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I expected it to be hard, but it was easy to set up.", "en"),
        ("Ожидалось, что отступы сохранятся.", "ru"),
    ],
)
def test_an_expectation_or_a_pleasant_surprise_is_no_pain(text, language):
    assert "pain" not in _types(text, language), _nodes(text, language)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Сборщик берёт настройки не из проекта а из кэша.", "берёт настройки не из проекта"),
        (
            "Почему сборка кладёт файлы в корень, а не в папку dist?",
            "кладёт файлы в корень, а не в папку dist",
        ),
    ],
)
def test_a_phrase_denied_against_another_after_a_verb_is_a_wrong_result(text, words):
    pains = _pains(text, "ru")
    assert len(pains) == 1 and words in pains[0], _nodes(text, "ru")


@pytest.mark.parametrize(
    "text",
    [
        "Это не баг, а особенность.",
        "Не только подсветка, но и поиск работает отлично.",
        "Я работаю не в офисе, а дома.",
        "Я пишу код не в редакторе а в блокноте.",
    ],
)
def test_a_contrast_without_a_product_verb_is_no_wrong_result(text):
    assert "pain" not in _types(text, "ru"), _nodes(text, "ru")


def test_an_html_comment_of_a_form_is_no_statement():
    text = (
        "<!-- Instead of writing here, use the report dialog; it fails to attach logs "
        "otherwise. -->\nThe minimap does not scroll with the editor."
    )
    assert mask_markup(text).startswith(" " * 20)
    assert _pains(text) == ["minimap does not scroll with the editor"], _nodes(text)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Не нашёл похожих задач в трекере.", "ru"),
        ("Не пробовал на другой машине.", "ru"),
        ("Не могу понять, в чём причина.", "ru"),
        ("Отключение расширений ничего не дало.", "ru"),
        ("Никаких ошибок в консоли не выводится.", "ru"),
        ("I did not change any settings.", "en"),
    ],
)
def test_what_the_writer_did_or_tried_and_absent_errors_are_no_pains(text, language):
    assert "pain" not in _types(text, language), _nodes(text, language)


@pytest.mark.parametrize(
    "text", ["Не запустился отладчик после сборки.", "Страница настроек не найдена."]
)
def test_a_thing_that_failed_in_the_past_is_still_a_pain(text):
    assert "pain" in _types(text, "ru"), _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "language", "name"),
    [
        ("In Kate the same project opens and everything works.", "en", "Kate"),
        ("В Geany всё работает нормально, а здесь нет.", "ru", "Geany"),
        ("Раньше пользовался Geany, там такого не было.", "ru", "Geany"),
        # named with its release
        ("В Geany 2.0.1 всё работает.", "ru", "Geany"),
    ],
)
def test_a_product_where_the_same_thing_works_is_a_competitor(text, language, name):
    found = [label for kind, label in _nodes(text, language) if kind == "competitor"]
    assert found == [name], _nodes(text, language)


def test_russian_names_both_products_of_a_paired_conjunction():
    found = [label for kind, label in _nodes("И Kate, и Geany работают без проблем.", "ru")]
    assert found == ["Kate", "Geany"]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I use Windows 11 and tried Ubuntu too.", "en"),
        ("В Windows всё работает, а в Linux нет.", "ru"),
    ],
)
def test_a_platform_or_an_elliptical_denial_names_no_competitor(text, language):
    assert "competitor" not in _types(text, language), _nodes(text, language)


def test_a_language_names_no_competitor():
    text = (
        "The spell checker marks every word.\n\nInstall a dictionary (e.g. Dutch or "
        "Brazilian Portuguese).\n\nWorks fine in German. Works fine in Opera."
    )
    found = [label for kind, label in _ticket(text, "en") if kind == "competitor"]
    assert found == ["Opera"], found
    assert names_a_language("Simplified Chinese")
    assert not names_a_language("Chinese Checkers Online")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Dear developers, please fix the highlighting.", "en"),
        ("Уважаемые разработчики, исправьте подсветку.", "ru"),
        ("Разработчики, добавьте тёмную тему!", "ru"),
    ],
)
def test_the_people_a_report_speaks_to_are_no_segment(text, language):
    assert "segment" not in _types(text, language), _nodes(text, language)


def test_a_list_of_subjects_is_no_address():
    assert "segment" in _types("Students, teachers and parents use it every day.")


@pytest.mark.parametrize(
    ("text", "language", "words"),
    [
        ("Работает только если закрыть панель и открыть её снова.", "ru", "закрыть панель"),
        ("Помогает только перезапуск окна.", "ru", "перезапуск окна"),
        ("Обходное решение — отключить синхронизацию настроек.", "ru", "отключить синхронизацию"),
        ("The sidebar only appears if I resize the window.", "en", "resize the window"),
        ("The workaround is to reload the window twice.", "en", "reload the window"),
    ],
)
def test_a_workaround_is_an_alternative(text, language, words):
    found = [label for kind, label in _nodes(text, language) if kind == "alternative"]
    assert len(found) == 1 and words in found[0], _nodes(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [("Перезагрузка не помогает.", "ru"), ("Не работает только если открыть через ярлык.", "ru")],
)
def test_a_fix_that_fails_is_no_workaround(text, language):
    assert "alternative" not in _types(text, language), _nodes(text, language)


def test_expecting_something_still_names_the_feature_expected():
    text = "I downloaded this, expecting a decent video streaming service like the others."
    assert "feature" in _types(text), _nodes(text)


def test_a_pain_told_again_of_a_pronoun_is_the_same_pain():
    text = "Панель поиска медленно работает. После перезагрузки она всё так же медленно работает."
    assert len(_pains(text, "ru")) == 1, _nodes(text, "ru")


def test_a_long_title_told_again_in_the_body_in_another_language_gives_way():
    text = (
        "When a diff editor is open beside the terminal the Go menu stops responding to "
        "clicks\n\nПри открытом редакторе сравнения меню «Переход» перестаёт реагировать."
    )
    pains = _pains(text, "ru")
    assert len(pains) == 1 and "перестаёт реагировать" in pains[0], pains


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Подсветка в Markdown не работает.", "подсветка в Markdown не работает"),
        ("Кнопка на панели тормозит.", "кнопка на панели тормозит"),
    ],
)
def test_a_russian_subject_keeps_the_phrase_that_modifies_it(text, label):
    assert _pains(text, "ru") == [label], _nodes(text, "ru")


def test_an_agent_noun_with_what_it_handles_is_a_tool_not_people():
    text = "Приходится закрывать через диспетчер задач, менеджер пакетов тоже висит."
    assert "segment" not in _types(text, "ru"), _nodes(text, "ru")
    assert "segment" in _types("Диспетчеры жалуются на задержки.", "ru")


def test_tracebacks_exception_lines_and_prompts_below_the_title_are_machine_output():
    text = (
        "Скрипт не запускается\n\nTraceback (most recent call last):\n"
        '  File "app.py", line 7, in <module>\n'
        "KeyError: Cannot read the key of undefined\n"
        "PS C:\\work> python app.py\n"
    )
    assert _pains(text, "ru") == ["скрипт не запускается"], _nodes(text, "ru")


def test_an_exception_named_in_the_title_is_the_reported_symptom():
    text = "ImportError: cannot load the module 'yaml'\n\nХотя пакет установлен."
    pains = _pains(text, "ru")
    assert len(pains) == 1 and "load the module" in pains[0], _nodes(text, "ru")
    text = "ModuleMissingError: no module named 'yaml'\n\nХотя пакет установлен."
    assert _pains(text, "ru"), _nodes(text, "ru")


def test_a_failure_said_of_nothing_gives_way_to_the_report_that_names_it():
    text = "Не работает\n\nПри открытии проекта редактор зависает."
    assert _pains(text, "ru") == ["редактор зависает"], _nodes(text, "ru")
    assert _pains("Не работает\n\nПомогите.", "ru") == ["не работает"]


@pytest.mark.parametrize(
    "text",
    [
        # a problem word others are said to use, in a report the writer disputes
        "Love this reader, don't believe the reviews that say it is slow.",
        # a problem named to say how little it matters
        "It has been reliable with just a few crashes in a year.",
        "It runs well with just a few glitches.",
        # what is awaited, named by a stranded "for"
        "This is the planner we have been waiting for.",
        # the writer's own choice not to use it
        "I bought the game but never installed it.",
        "We didn't update because the old version was enough.",
        # a word and its denial weigh two choices
        "Whether you like or not like the colours is up to you.",
        # the trouble explains why something is liked
        "I like this scanner because my old one kept freezing.",
        # a first impression the writer has since left behind
        "I didn't like the layout at first, but now I find everything quickly.",
        # what ought to be so
        "Rare records should be difficult to find, that is the fun.",
    ],
)
def test_disputed_minimized_awaited_chosen_and_outgrown_problems_are_not_pains(text):
    assert not _pains(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Don't believe it, the export keeps crashing.",  # no report is disputed
        "It runs with minor glitches on every page.",  # minor, not named as a concession
        "I have been waiting for the sync for an hour.",  # the wait has its object
        "The game never installed on my tablet.",  # the game is the subject
        "I can't install the update.",  # inability, not a choice
        "The viewer crashes or doesn't open.",  # a denial of another verb
        "It looks like a toy because it keeps freezing.",  # "like" compares
        "I liked it because it was simple, but now it keeps freezing.",
        "It worked at first but now it keeps freezing.",  # the problem is said of now
        "The export should be fixed, it fails every time.",
    ],
)
def test_the_same_words_stating_a_problem_are_pains(text):
    assert _pains(text), _nodes(text)


def test_the_subject_of_a_clause_after_a_verb_of_perceiving_is_no_feature():
    assert not any(
        "users" in f for f in _features("I can see other users are posting about the lag.")
    )
    assert "see the shared calendars" in _features("I love that I can see the shared calendars.")


def test_one_thing_preferred_to_another_is_no_feature():
    assert not any("to tablets" in f for f in _features("I prefer paper notebooks to tablets."))
    assert "dark theme" in _features("I prefer the dark theme on my laptop.")


def test_a_verb_the_tagger_reads_as_a_noun_is_still_a_verb_after_to_or_a_modal():
    # a general verb with only a word for features in general names none
    assert not _features("I still haven't been able to use all the tools yet.")
    assert "export the reports to Excel" in _features("I was able to export the reports to Excel.")
    # "easy to use" describes the noun after it
    assert "use editor" in _features("Easy to use editor and great templates.")


def test_a_part_name_before_a_possessive_is_a_verb_not_the_part():
    features = _features("Then share your list with the family.")
    assert "share" not in features and "list" in features
    assert "post" in _features("The post your friend wrote is gone.")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Terrible reader, it is just wasting time.", None),
        ("Great game, but do you even read the reviews?", None),
        # a place in the product, a problem with a function, the whole of what is kept
        ("Love it, I save my things to the cloud folder.", "save my things to the cloud folder"),
        ("Awful sync, I keep getting syncing errors.", "syncing"),  # the fault named apart
        ("Great, I save everything there.", "save everything"),
    ],
)
def test_a_verb_with_only_a_general_noun_for_object_names_no_feature(text, kept):
    assert _features(text) == ({kept} if kept else set()), _nodes(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Sadly it performs its basic functions and nothing more.", None),
        ("Terrible, it lacks many options.", None),
        ("Its syncing capability is superb.", "syncing capability"),  # no predicate
    ],
)
def test_a_verb_with_only_a_word_for_features_in_general_names_none(text, kept):
    assert _features(text) == ({kept} if kept else set()), _nodes(text)


def test_a_part_name_used_as_a_verb_after_an_adverb_keeps_what_follows():
    assert "show three events from my calendar" in _features(
        "It only show three events from my calendar."
    )
    assert "post three photos a day" in _features("We still post three photos a day.")


@pytest.mark.parametrize(
    ("text", "advised"),
    [
        ("We should offer a printable receipt after checkout.", "offer a printable receipt"),
        ("Additionally, should consider adding more filters for speed.", "adding more filters"),
        ("We should also consider showing the fare before booking.", "showing the fare"),
        ("We must keep drafts between sessions.", None),  # a duty of care, nothing to build
        ("We should be careful with prices.", None),
    ],
)
def test_advice_in_research_notes_names_the_advised_action(text, advised):
    found = [text[s:e] for _, (s, e) in advice_spans(text, (0, len(text)))]
    assert found == ([advised] if advised else []), found


def test_advised_action_is_a_feature_quoted_with_its_advice():
    text = "Drivers missed the pickup note. Should consider showing the note on the map."
    nodes = extract_offline(ExtractionRequest(text=text, product="")).nodes
    advised = {n.label: n.quote for n in nodes if n.type == "feature"}
    assert "showing the note" in advised, advised
    assert advised["showing the note"].startswith("Should consider")  # the quote says "should"


def _resolved(text: str) -> bool:
    clause_end = text.index(",")
    return resolved_later(text, (0, clause_end), (0, len(text)))


@pytest.mark.parametrize(
    "text",
    [
        "The upload kept failing, but now the client is fixed.",
        "Sync broke last month, but now ninety percent of it works fine.",
        "The widget froze, but now whatever I want works again.",
    ],
)
def test_a_word_ending_in_nt_does_not_negate_a_later_fix(text):
    assert _resolved(text)


@pytest.mark.parametrize(
    "text",
    [
        "The upload kept failing, but now it isn't fixed.",
        "The upload kept failing, but now it isnt fixed.",
        "The upload kept failing, but now it doesn’t work fine.",
        "The upload kept failing, but now it doesnt work again.",
        "The upload kept failing, but now it never works again.",
    ],
)
def test_a_later_fix_that_is_negated_leaves_the_problem(text):
    assert not _resolved(text)


@pytest.mark.parametrize(
    "text",
    [
        "The &quot;Send&quot; button doesn&#39;t respond on my tablet.",
        "Printing won&#x27;t start &amp; the queue hangs.",
        "My &#34;favourites&#34; list doesn&#39;t load anymore.",
    ],
)
def test_character_references_are_read_as_their_characters_at_the_same_offsets(text):
    view = read_entities(text)
    assert len(view) == len(text)
    assert "&" not in view.replace("& ", "")
    assert "n't" in view
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    pains = [n for n in answer.nodes if n.type == "pain"]
    assert pains, "the apostrophe makes the negation"
    spans = entity_spans(text)
    for node in answer.nodes:
        at = text.index(node.quote)
        assert outside_entities((at, at + len(node.quote)), spans) == (
            at,
            at + len(node.quote),
        ), "a quote never starts or ends inside a reference"
        assert "&#" not in node.label and "&quot;" not in node.label


def test_a_quoted_name_written_with_references_keeps_its_quotes_in_the_label():
    text = "The app freezes when I tap &quot;Export&quot;."
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    pain = next(n for n in answer.nodes if n.type == "pain")
    assert '"Export"' in pain.label
    assert pain.quote.endswith("&quot;Export&quot;")


def test_a_span_inside_a_reference_is_widened_to_the_whole_reference():
    text = "Tap &quot;Go&quot; twice"
    spans = entity_spans(text)
    assert spans == [(4, 12), (12, 18)]
    assert outside_entities((9, 16), spans) == (4, 18)
    assert read_entities("an &unknown; word") == "an &unknown; word"


def test_a_long_pain_is_cut_after_its_first_whole_clause():
    text = "The upload form times out on large scans and reviewers never see any of the files."
    assert ("pain", "upload form times out on large scans") in _nodes(text)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "the upload form times out on large scans and reviewers never see any of the files",
            "the upload form times out on large scans",
        ),
        (
            "the calendar loses my entries after a restart, and my phone never gets them back",
            "the calendar loses my entries after a restart",
        ),
        (
            "the map freezes on every second route or it shows a blank grey screen instead",
            "the map freezes on every second route",
        ),
    ],
)
def test_the_first_clause_ends_where_a_coordinator_opens_another(text, first):
    assert first_clause_end(text, (0, len(text)), 10) == len(first)


@pytest.mark.parametrize(
    "text",
    [
        # what follows the coordinator has no subject and verb of its own
        "search results load very slowly on older phones and fast on new ones with more memory",
        # the second clause starts past the word limit
        "the old tablet in the back office takes a very long time to boot and it then freezes",
    ],
)
def test_no_clause_boundary_means_no_clause_cut(text):
    assert first_clause_end(text, (0, len(text)), 10) is None


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("Participants report that the search page is confusing.", "report"),
        ("Most couriers mention that the route list is too long.", "mention"),
        ("Staff report the tracking numbers by email.", "report"),
        ("Several testers note that the filters reset on every visit.", "note"),
    ],
)
def test_a_reporting_verb_after_people_is_no_feature(text, verb):
    features = [label for t, label in _nodes(text) if t == "feature"]
    assert not any(verb in label.split() for label in features), features


def test_a_report_or_a_note_that_is_a_part_is_still_a_feature():
    assert ("feature", "report") in _nodes("The weekly report is great.")
    assert ("feature", "report bugs") in _nodes("I can report bugs from the menu.")
    assert any(t == "feature" and "notes" in label for t, label in _nodes("My notes sync fine."))


@pytest.mark.parametrize(
    ("text", "verb"),
    [
        ("The missing status page creates doubt among its readers.", "creates"),
        ("The unclear form leads to confusion.", "leads"),
        ("It causes frustration for many of our drivers.", "causes"),
        ("The reminders produce a lot of stress.", "produce"),
    ],
)
def test_a_verb_of_causing_with_a_feeling_or_a_problem_is_no_feature(text, verb):
    features = [label for t, label in _nodes(text) if t == "feature"]
    assert not any(verb in label.split() for label in features), features


def test_a_verb_of_causing_that_makes_a_thing_is_still_a_feature():
    assert ("feature", "creates playlists") in _nodes(
        "It creates playlists from my favourite songs."
    )


@pytest.mark.parametrize(
    "text",
    [
        "Very user friendly.",  # an adverb is no part of a group's name
        "It has a good user interface.",  # "user" modifies "interface"
        "I use the cozi family app and it works better.",  # "family" modifies "app"
        "Now I can shop ebay without turning on my computer!",  # "can" is no modifier
    ],
)
def test_a_person_noun_inside_another_phrase_is_no_segment(text):
    assert "segment" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "segment"),
    [
        ("Great for working parents.", "working parents"),
        ("Teachers use it every day.", "teachers"),
        ("I am a first time user so I am not confident yet.", "first time users"),
        # a person said to be one, unlike the app said to be "a life saver"
        ("I am a writer and it keeps me organized.", "writers"),
        ("My husband is a teacher.", "teachers"),
        ("Great for football players.", "football players"),
    ],
)
def test_a_group_named_with_its_own_words_stays_a_segment(text, segment):
    assert ("segment", segment) in _nodes(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "I had to switch from Galaxy S5 to this.",  # the device it ran on
        "I am using PS3 for this.",
        "Why should I pay for PREMIUM?",  # a word shouted, not a name
        "It needs Chromecast support.",  # support for a device, not a rival that supports
        "I had to switch Kindles after one was faulty.",
        "These included:capabilitiesEverEPub and more.",  # words run together
    ],
)
def test_a_device_a_shouted_word_or_a_thing_supported_is_no_competitor(text):
    assert "competitor" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I switched from Deezer.", "Deezer"),
        ("Lightspeed offers a loyalty program.", "Lightspeed"),
        ("I use Netflix.BETTER THAN ANY other app.", "Netflix"),  # the name ends at its period
    ],
)
def test_a_rival_is_named_by_its_name_alone(text, name):
    assert [label for kind, label in _nodes(text) if kind == "competitor"] == [name]


def test_a_request_to_fix_naming_nothing_adds_no_pain_beside_the_problem():
    text = "The app crashes when I open a playlist. Please fix it."
    pains = [label for kind, label in _nodes(text) if kind == "pain"]
    assert pains == ["app crashes when I open a playlist"]


def test_a_lone_request_to_fix_is_still_the_only_sign_of_a_problem():
    assert [kind for kind, _ in _nodes("Fix this please")] == ["pain"]


@pytest.mark.parametrize(
    "text",
    [
        'My wife and I were watching an episode of "Mad Men," and I paused the movie.',
        "It makes me more patient.",  # an adjective graded, not a patient
    ],
)
def test_a_title_or_a_graded_adjective_is_no_segment(text):
    assert "segment" not in _types(text), _nodes(text)


def test_a_job_is_a_clause_not_one_word():
    text = "Sometimes videos don't play and just sit there trying to load."
    assert [label for kind, label in _nodes(text) if kind == "job"] == []


@pytest.mark.parametrize(
    "text", ["Gr8 app I'd give it 5 stars but the ads are too loud.", "So, 4 stars."]
)
def test_the_writers_stars_are_no_metric(text):
    assert "metric" not in _types(text), _nodes(text)


def test_stars_counted_of_something_else_stay_a_metric():
    assert "metric" in _types("The repo has 500 stars on GitHub.")


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("I opened the app and it crashed.", "open"),  # an operation is named by its verb
        ("I have already uninstalled.", "uninstall"),
        # the lone letter the swear word left goes: "play feature", not "play feature f"
        ("Very annoying shuffle play feature f**ks this app completely", "play feature"),
    ],
)
def test_a_feature_is_named_as_a_feature_is(text, feature):
    features = [label for kind, label in _nodes(text) if kind == "feature"]
    assert features[-1:] == [feature], features


@pytest.mark.parametrize(
    "text",
    [
        "I have yet to run into a problem, it is SO easy to use.",  # denied by "yet to"
        "It's kind of hard to go wrong with an eBay app.",  # praise
    ],
)
def test_a_problem_yet_to_come_or_hard_to_meet_is_no_pain(text):
    assert "pain" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "This app is a life saver.",  # a person noun said of the app: what it is
        "It's my record keeper and my memory backup.",
        "Shuffle only is kind of a bummer.",  # -er words that are no one
        "The web clipper is my favorite component.",
    ],
)
def test_what_a_thing_is_called_is_no_segment(text):
    assert "segment" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "It is as good as a Dvd player.",  # a device, not people who play
        "when it came to using planners, I prefer paper.",  # a verb's object
    ],
)
def test_a_device_or_a_verbs_object_is_no_segment(text):
    assert not any(
        kind == "segment" and label.split()[0] in ("dvd", "Dvd", "using")
        for kind, label in _nodes(text)
    ), _nodes(text)


def test_people_described_by_an_ing_adjective_stay_a_segment():
    assert ("segment", "working parents") in _nodes("Great for working parents.")
    assert ("segment", "football players") in _nodes("Great for football players.")


def test_a_suggestion_put_as_a_question_is_a_request_not_a_pain():
    text = "Why not try to let people know if an account is online or not?"
    assert "pain" not in _types(text), _nodes(text)
    assert ("feature", "dark mode") in _nodes("How about adding a dark mode?")
    # the fault told before the suggestion stays one
    assert ("pain", "app crashes") in _nodes("The app crashes, why not test it first?")


def test_a_bare_verb_naming_an_option_names_a_feature():
    # taggers read "call" in "a call option" as a verb; it still says which option
    assert ("feature", "free call option") in _nodes("Please add a free call option.")
    assert "feature" not in _types("It has many advanced options.")


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Now Add video calling also :)", "video calling"),  # a request with no "please"
        ("Bring back the old layout!", "old layout"),
        ("Please add group calling.", "group calling"),  # a noun and an -ing word: one name
        ("The Home button is necessary to scroll to the top.", "Home button"),  # its name
        ("Removing the top bar was a terrible move.", "removing the top bar"),  # no predicate
    ],
)
def test_a_feature_is_the_whole_name_and_no_more(text, feature):
    assert ("feature", feature) in _nodes(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "not_a_feature"),
    [
        ("I wish you'd give some love to lists", "you'd"),  # a pronoun
        ("I love this app coz its faster", "app coz"),  # a clause left out after "because"
        ("Updated 2013- This Facebook app is easy to download.", "update"),  # a date stamp
    ],
)
def test_a_pronoun_a_cut_clause_or_a_date_stamp_is_no_feature(text, not_a_feature):
    assert ("feature", not_a_feature) not in _nodes(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("I am looking for voice calling.. please update version..", "voice calling"),
        ("I cnt use the call feature dnt know why", "call feature"),  # texted "don't" goes
        ("I cant seem to upload my profile picture.", "upload my profile picture"),  # a frame
    ],
)
def test_a_compound_or_a_texted_word_leaves_the_whole_name(text, feature):
    assert ("feature", feature) in _nodes(text), _nodes(text)


def test_what_people_are_said_to_do_describes_them_no_use():
    text = "For grandparents who live far from their children it is a good way to share pictures."
    assert [label for kind, label in _nodes(text) if kind == "feature"] == ["share pictures"]


def test_the_product_itself_is_no_feature_of_it():
    def features(text: str) -> list[str]:
        request = ExtractionRequest(text=text, language="en", product="", project_name="Facebook")
        return [n.label for n in extract_offline(request).nodes if n.type == "feature"]

    assert features("Not a great fan of face book.") == []  # its name, spelt apart
    assert features("The only way I can check Facebook is to go to the app store.") == []
    assert features("I use the Facebook page daily.") == ["Facebook page"]  # a part of it
    # with no project name the same words are read as before
    assert ("feature", "check Facebook") in _nodes("The only way I can check Facebook is here.")


@pytest.mark.parametrize(
    ("text", "not_a_feature"),
    [
        ("My wife and I love movies and NETFLIX has a wonderful selection.", None),  # clauses
        ("It's only a black screen.", "screen"),  # what a failure shows
        ("Loads of Fun!", "loads"),  # a quantity, no loading
        ("It is one of the must have apps for Fire.", "Fire"),  # the Kindle Fire, short
        ("I recommend it for all ebay users.", "ebay users"),  # people: a segment
        ("You will love this App, for the Android operating system.", "operating system"),
    ],
)
def test_a_clause_a_symptom_a_device_or_people_is_no_feature(text, not_a_feature):
    features = [label for kind, label in _nodes(text) if kind == "feature"]
    if not_a_feature is None:
        assert all(" has " not in label for label in features), features
    else:
        assert not_a_feature not in features, features


def test_a_feeling_is_no_part_of_a_features_name():
    assert ("feature", "movies") in _nodes("My wife and I love movies.")
    # a feeling's word that names a part stays ("a love reaction", "the like button")
    assert ("feature", "love reaction") in _nodes("Add a love reaction")


def test_the_whole_product_by_its_name_is_no_feature():
    request = ExtractionRequest(
        text="I love my netflix service already.", language="en", product="", project_name="Netflix"
    )
    assert [n.label for n in extract_offline(request).nodes if n.type == "feature"] == []


def test_a_question_embedded_as_the_object_is_no_clause():
    text = "I like to see what items have bids on them."
    assert ("feature", "see what items have bids") in _nodes(text), _nodes(text)


def test_an_attempt_that_ends_otherwise_is_a_pain_unless_it_names_nothing():
    assert ("pain", "window just closes") in _nodes(
        "I try to open the project from WSL, but the window just closes."
    )
    text = "I tried to put both the full and relative paths, but nothing changed."
    assert "pain" not in _types(text), _nodes(text)


def test_a_key_combination_is_one_token():
    assert [t.text for t in analyse("Press Ctrl+Shift+K now")] == ["Press", "Ctrl+Shift+K", "now"]


def test_a_named_part_that_stopped_doing_something_is_a_fault():
    text = "After installing the Python extension, IntelliSense stopped suggesting imports."
    assert ("pain", "IntelliSense stopped suggesting imports") in _nodes(text), _nodes(text)
    assert "pain" not in _types("My son stopped playing it.")


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("They moved the search bar to the bottom. This is really annoying.", "search bar"),
        ("My playlists get shuffled whenever I sync, which is very frustrating.", "shuffled"),
        ("All file types get the same icon. How do I fix this?", "same icon"),
    ],
)
def test_a_statement_the_next_words_call_trouble_is_a_pain(text, pain):
    pains = _pains(text)
    assert len(pains) == 1 and pain in pains[0]


@pytest.mark.parametrize(
    "text",
    [
        "I never lose my notes, which is great.",
        "They moved the search bar to the bottom. This is not a problem.",
        "They moved the search bar to the bottom. How do I move it back?",
    ],
)
def test_words_after_a_statement_that_call_no_trouble_make_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("words", "judges"),
    [
        ("This is really annoying", True),
        ("which is a big problem for new users", True),
        ("Это не приятно для глаз", True),  # «не приятно» written apart
        ("Как исправить эту ошибку?", True),
        ("This is not a problem", False),
        ("This is great", False),
        ("Это ошибка или так задумано?", False),  # asks what it is, names a design
        ("Как исправить?", True),  # the repair asked for has only the statement before
        ("How do I fix the sidebar?", False),  # names what to fix
        ("That is how I fix it.", False),  # a repair told, not asked for
    ],
)
def test_judges_what_came_before(words, judges):
    assert judges_what_came_before(words) is judges


def test_an_event_that_happens_unasked_is_a_pain():
    assert _pains("Unwanted scrolling in the editor") == ["unwanted scrolling in the editor"]
    assert _pains("The filter hides unwanted emails.") == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Dark mode turns off by itself.", "dark mode turns off by itself"),
        ("It logs me out for no reason.", "logs me out for no reason"),
        ("The player stops without warning.", "player stops without warning"),
        ("The installer overwrites my settings.", "installer overwrites my settings"),
        ("The export skips the last row.", "export skips the last row"),
    ],
)
def test_what_a_product_does_unasked_or_to_what_the_user_made_is_a_pain(text, pain):
    assert _pains(text) == [pain]


@pytest.mark.parametrize(
    "text",
    [
        "You can skip the intro.",  # a capability, not a fault
        "I deleted the old notes and it works fine now.",  # the person did it
        "Auto-clean deletes old logs every week.",  # nothing of the user's is named
        "She learned to code by herself.",
    ],
)
def test_doing_so_by_choice_or_to_nothing_of_the_users_is_no_pain(text):
    assert _pains(text) == []


def test_an_english_bug_template_reads_as_the_russian_one():
    text = (
        "Forwarded mail styles\n\n"
        "User Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:60.0) Gecko/20100101\n\n"
        "Steps to reproduce:\n\n1. Compose a plain-text mail.\n2. Attach a saved message.\n\n"
        'Actual results:\n\n"Sample text" appears centered.\n\n'
        "Expected results:\n\nShowing the sample text left aligned.\n"
    )
    nodes = _nodes(text, "en")
    assert ("pain", '"Sample text" appears centered') in nodes
    assert not any(kind == "segment" for kind, _ in nodes)  # "user agents" is the template's
    assert not any("aligned" in label for _, label in nodes)  # what was expected
    # a title that states the fault in a clause stands for it: the one fault of the ticket
    stated = text.replace("Forwarded mail styles", "Styles from a forwarded mail are used")
    assert [label for kind, label in _ticket(stated) if kind == "pain"] == [
        "Styles from a forwarded mail are used"
    ]


@pytest.mark.parametrize(
    ("label", "points_back"),
    [
        ("I saw the same issue on another server", True),
        ("problem also occurs if a HTML mail is composed", True),
        ("у коллеги такая же проблема", True),
        ("такую же проблему я встречал в другом редакторе", True),  # inflected, and met
        ("this issue makes the app unusable", False),  # says what it does
        ("Twitter ignores me every time I file this issue", False),
        ("the same error appears when I save", False),  # an error shows: a symptom
        ("problem with sync", False),  # an area, for another rule
    ],
)
def test_points_back_at_a_problem(label, points_back):
    assert points_back_at_a_problem(label) is points_back


def test_a_problem_met_again_elsewhere_is_no_second_pain():
    assert _pains("The app crashes on start. I saw the same issue on my tablet.") == [
        "app crashes on start"
    ]


@pytest.mark.parametrize(
    ("text", "language", "pains"),
    [
        ("It is hard to say, but the app crashes on start.", "en", ["app crashes on start"]),
        ("Трудно сказать, в чём причина.", "ru", []),
    ],
)
def test_being_unsure_is_no_pain(text, language, pains):
    assert _pains(text, language) == pains


def test_reproduction_steps_ask_for_no_feature():
    steps = "1. Open the Mail program.\n2. Click the Quick view button.\n"
    # the same lines outside a steps section do name parts: the section is what differs
    assert any(kind == "feature" for kind, _ in _nodes("Nothing happens.\n\n" + steps, "en"))
    text = "Nothing happens.\n\nSteps to reproduce:\n" + steps
    assert not any(kind == "feature" for kind, _ in _nodes(text, "en"))


@pytest.mark.parametrize(
    ("text", "competitor"),
    [
        ("The page is blank in SeaMonkey. Firefox is working.", "Firefox"),
        ("Does not reproduce in Chrome.", "Chrome"),
        ("The page renders blank in SeaMonkey but not in Firefox.", "Firefox"),
        ("The video does not play here.\n\nOpera 102.0.4 plays the video correctly.", "Opera"),
        ("Fixed in Vivaldi but not in our browser.", "Vivaldi"),
    ],
)
def test_another_product_free_of_the_fault_is_a_competitor(text, competitor):
    assert ("competitor", competitor) in _nodes(text, "en")


@pytest.mark.parametrize(
    "text",
    [
        "Menu works fine.",
        "Opera plays it fine.",  # a word of the dictionary opening the sentence, no version
        "Support answered quickly and the team handled it fine.",
        "Fixed in March but not for long.",
    ],
)
def test_a_capital_that_only_opens_the_sentence_works_as_no_competitor(text):
    assert not any(kind == "competitor" for kind, _ in _nodes(text, "en"))


def test_a_ticket_laid_out_in_a_template_names_no_features_it_does_not_ask_for():
    text = (
        "Menu does not work\n\nSteps to reproduce:\n1. Open the start page.\n\n"
        "Actual results:\nThe menu does not open and the search field shows a black screen.\n"
    )
    assert not any(kind == "feature" for kind, _ in _nodes(text, "en"))
    assert any(kind == "pain" for kind, _ in _nodes(text, "en"))


def test_every_statement_of_the_actual_results_paragraph_is_a_pain():
    text = (
        "Shop page broken\n\nActual results:\n"
        "Menu does not work. No spaces between many pictures. Large processor load.\n\n"
        "SIP is enabled on this machine.\n\nExpected results:\nNormal loading.\n"
    )
    pains = _pains(text)
    assert any("spaces between many pictures" in p for p in pains)
    assert any("processor load" in p for p in pains)
    assert not any("SIP" in p for p in pains)  # a later paragraph explains


@pytest.mark.parametrize(
    "text",
    [
        "Can't just reproduce now so setting to unconfirmed for now.",
        "Bug 1602463 added a new background agent to Windows.",
        "Port shell service changes from Bug 1823686 to SeaMonkey.",
        "We need to port the launcher changes from Bug 4321.",
        "This was also happening in SeaMonkey 2.48.",
    ],
)
def test_reproducing_code_work_and_a_problem_met_again_are_no_pain(text):
    assert _pains(text) == []


def test_a_product_it_works_on_is_a_competitor():
    assert ("competitor", "Firefox") in _nodes("The page loaded properly on Firefox.", "en")
    assert not any(k == "competitor" for k, _ in _nodes("Sync works fine with Dropbox.", "en"))


def test_time_ago_is_no_metric():
    assert metric_label_problem("bug was filed 2 years ago") != ""
    assert metric_label_problem("ошибка появилась 3 дня назад") != ""
    assert metric_label_problem("sync takes 2 minutes") == ""
    # an age is no measure either
    assert metric_label_problem("linked to a 12 year old bug") != ""
    assert metric_label_problem("похоже на баг 10-летней давности") != ""


def test_a_number_in_a_question_is_no_metric():
    asked = "Mail check is slow\n\nIs it checking the server every 10 seconds?"
    assert "metric" not in {kind for kind, _ in _ticket(asked)}, _ticket(asked)
    told = "Mail check is slow\n\nIt checks the server every 10 seconds."
    assert "metric" in {kind for kind, _ in _ticket(told)}


@pytest.mark.parametrize(
    ("text", "language", "pain"),
    [
        ("My font setting is ignored after restart.", "en", "font setting is ignored"),
        ("The option is ignored.", "en", "option is ignored"),
    ],
)
def test_a_setting_passed_over_is_a_pain(text, language, pain):
    assert pain in _pains(text, language)


def test_the_products_a_fault_was_tested_with_are_competitors():
    assert ("competitor", "Firefox") in _nodes("Tested with Firefox.", "en")
    assert not any(k == "competitor" for k, _ in _nodes("I tested with a friend.", "en"))


@pytest.mark.parametrize(
    "text",
    [
        "This picks the following changeset from Ambassador.",
        "Nothing loads.\n\nNotes:\n- Reproduces regardless of the status of ETP",
    ],
)
def test_a_pointer_onward_and_how_a_fault_reproduces_name_no_feature(text):
    features = [label for kind, label in _nodes(text, "en") if kind == "feature"]
    assert not any("following" in f or "reproduce" in f.lower() for f in features)


def test_a_product_named_where_the_expected_result_happens_is_a_competitor():
    text = (
        "Images too large\n\nActual results:\n\nThe website is unusable because the images are "
        "huge.\n\nExpected results:\n\nImages should be rendered at a normal size.\n"
        "Opera 102.0.4 renders this page correctly."
    )
    nodes = _nodes(text, "en")
    assert ("competitor", "Opera") in nodes
    assert not any("normal size" in label for _, label in nodes)  # what was expected


@pytest.mark.parametrize(
    ("text", "competitor"),
    [
        ("Video does not play. Vivaldi does not have this problem.", "Vivaldi"),
        ("Video does not play. Not reproducible on Chrome and Opera.", "Opera"),
        ("Page broken\n\n**Tested Another Browser**: Yes Vivaldi", "Vivaldi"),
    ],
)
def test_a_product_without_the_fault_or_tested_on_a_form_is_a_competitor(text, competitor):
    assert ("competitor", competitor) in _nodes(text, "en")


@pytest.mark.parametrize(
    "text",
    [
        "The popup cannot be closed. Only using Esc works.",  # a key
        "The code still uses readPrefValue for this setting.",  # a name in code
        "Catch potential exception in fetchOwners",
        "The identifiers are wrong and the mouse pointers vanish.",  # things, not people
    ],
)
def test_keys_code_names_and_things_are_neither_rivals_nor_people(text):
    assert not _types(text, "en") & {"competitor", "segment"}


def test_faults_of_a_text_are_pains():
    assert _pains("Typos in the help page") == ["typos in the help page"]
    assert _pains("Dead link to the FAQ") == ["dead link"]


def test_a_page_quoted_in_another_language_states_no_fault():
    text = (
        "Overlapping text\n\nActual results:\n\nOverlapping text:\n"
        "De winkel is vandaag gesloten.\nBestellingen worden morgen verzonden.\n"
    )
    assert _pains(text) == ["overlapping text"]
    assert reads_as_english("The export fails on large files.")
    assert reads_as_english("TikTok videos do not play")
    assert not reads_as_english("Bestellingen worden morgen verzonden.")


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("I can't log in anymore.", "can't log in"),
        ("The laptop won't shut down.", "laptop won't shut down"),
        ("The problem is that I can't rely on it.", "I can't rely on it"),  # no phrasal verb
    ],
)
def test_a_phrasal_verb_keeps_its_particle_at_the_end_of_a_label(text, pain):
    assert _pains(text) == [pain]


def test_a_title_that_states_the_fault_stands_over_the_same_words_in_the_body():
    text = (
        "Images are not copied to the mail composer\n\nSteps to reproduce:\n1. Copy a page.\n\n"
        "Actual results:\n\nThe images are not copied to the composer."
    )
    assert _pains(text) == ["images are not copied to the mail composer"]
    # a title that only names the matter gives way to the body's statement
    text = "Editor problem\n\nThe editor stops showing characters after some time."
    assert _pains(text) == ["editor stops showing characters"]
    # a body that tells another fault keeps it
    text = "Extension crashes at start\n\nWindows users cannot install the extension at all."
    assert "cannot install the extension at all" in _pains(text)


@pytest.mark.parametrize(
    ("label", "clause"),
    [
        ("images are not copied", True),
        ("export fails", True),
        ("не могу установить пайтон", True),
        ("wrong directory", False),
        ("terminal problem", False),
    ],
)
def test_a_label_states_a_clause_when_it_has_a_verb_or_a_negation(label, clause):
    assert states_a_clause(label) is clause


@pytest.mark.parametrize(
    "text",
    [
        "+++ This bug was initially created as a clone of Bug #1655261 +++",
        "This ports the relevant part of Bug 5360 to the suite.",
        "This bug will track the changes needed for the new compiler.",
        "The old parser needs to be removed.",
    ],
)
def test_a_ticket_telling_its_history_or_work_on_the_code_states_no_fault(text):
    assert _pains(text) == []


def test_a_part_that_needs_to_be_fixed_is_still_a_fault():
    assert _pains("The sidebar needs to be fixed, it crashes.") == ["sidebar needs to be fixed"]


@pytest.mark.parametrize(
    ("text", "alternative"),
    [
        ("Downgrading to version 2.16 fixed it for me.", "downgrading to version 2.16"),
        (
            "Images are lost. Pasting them in another editor also eliminates the problem.",
            "pasting them in another editor",
        ),
        ("The popup stays. The only way to close it is to restart the browser.", "restart"),
    ],
)
def test_a_way_round_the_fault_told_before_or_after_its_cue_is_an_alternative(text, alternative):
    nodes = _nodes(text, "en")
    assert any(kind == "alternative" and label.startswith(alternative) for kind, label in nodes)
    assert not any(kind == "pain" and "eliminates" in label for kind, label in nodes)


@pytest.mark.parametrize(
    "text",
    [
        "Nothing helps, the app still crashes.",  # "nothing" is no action
        "The only thing is that it does not save larger files.",  # a drawback
        "Everything fixed after the update.",
    ],
)
def test_no_action_or_a_drawback_is_no_workaround(text):
    assert "alternative" not in _types(text, "en")


def test_what_the_program_takes_of_the_machine_is_a_measure_not_the_machine():
    assert ("metric", "processor usage is about 20 to 40%") in _nodes(
        "The processor usage is about 20 to 40%.", "en"
    )
    assert "metric" not in _types("Intel i5, 16 GB RAM", "en")  # the machine itself


@pytest.mark.parametrize(
    ("text", "competitor"),
    [
        ("The page is blank. Opera and Vivaldi both run without difficulty.", "Vivaldi"),
        ("The page is blank. Vivaldi works without any problems.", "Vivaldi"),
    ],
)
def test_a_product_that_runs_without_problems_is_a_competitor(text, competitor):
    assert ("competitor", competitor) in _nodes(text, "en")
    assert "competitor" not in _types("Sync works without problems now.", "en")


def test_a_remedy_a_ticket_tried_in_vain_is_no_second_fault():
    text = (
        "Videos do not play.\n\nSwitching to a new profile does not help. "
        "Enabling JavaScript did not change the behavior."
    )
    request = ExtractionRequest(text=text, language="en", product="", records="bug_report")
    pains = [n.label for n in extract_offline(request).nodes if n.type == "pain"]
    assert pains == ["videos do not play"]


@pytest.mark.parametrize(
    ("text", "language", "pain"),
    [
        ("Opening the page causes heavy CPU load.", "en", "heavy CPU load"),
        ("Very high RAM usage with two windows open.", "en", "very high RAM usage"),
        (
            "Открытие страницы вызывает высокую нагрузку на процессор.",
            "ru",
            "нагрузку на процессор",
        ),
        ("Очень большое потребление памяти.", "ru", "большое потребление памяти"),
    ],
)
def test_too_much_of_the_machine_taken_is_a_pain(text, language, pain):
    assert any(pain in label for label in _pains(text, language)), _nodes(text, language)


def test_a_memory_leak_is_a_pain():
    assert _pains("Memory leak when the preview pane stays open.") == ["memory leak"]


def _ticket(text: str, language: str = "en") -> list[tuple[str, str]]:
    request = ExtractionRequest(text=text, language=language, product="", records="bug_report")
    return [(n.type, n.label) for n in extract_offline(request).nodes]


def test_an_english_ticket_whose_title_states_its_fault_reports_that_one_fault():
    text = (
        "Attachments are not saved to drafts\n\nI attach a file and save the draft. "
        "The attachments disappear after saving. The toolbar also flickers."
    )
    assert [label for kind, label in _ticket(text) if kind == "pain"] == [
        "attachments are not saved to drafts"
    ]
    # a title that only names the matter still gives way to what the body tells
    named = "Attachments problem\n\nThe attachments disappear after saving."
    (told,) = [label for kind, label in _ticket(named) if kind == "pain"]
    assert "disappear" in told
    # notes under a heading are no ticket: what else their body says wrong stays
    assert len(_pains(text)) > 1
    # a Russian ticket keeps the other faults its body states
    text = (
        "Вложения не сохраняются в черновиках\n\nПрикрепляю файл и сохраняю черновик. "
        "Вложения пропадают при сохранении. Ещё и панель инструментов зависает."
    )
    assert len([kind for kind, _ in _ticket(text, "ru") if kind == "pain"]) > 1


@pytest.mark.parametrize(
    ("text", "title"),
    [
        # no word of the title is a cue of trouble: a tracker's summary line states the fault
        (
            "Forwarded invoices arrive as plain text\n\nI forward an invoice from the shop. "
            "My accountant gets the text without the table.",
            "Forwarded invoices arrive as plain text",
        ),
        # tags and the site a title is about stand before it, not in its label
        (
            "[mail] www.example.org - Checkout button sits behind the footer\n\n"
            "Scroll down to pay.",
            "Checkout button sits behind the footer",
        ),
        ("Calendar import turns every event into an all-day event\n\nSee the file.", None),
        # an absence is a statement too
        (
            "www.example.org - No order history\n\nThe page shows grey boxes instead.",
            "No order history",
        ),
    ],
)
def test_a_tickets_title_states_its_fault_without_a_cue_of_trouble(text, title):
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    if title is None:
        (pain,) = pains
        assert "all-day event" in pain
    else:
        assert pains == [title]
    # notes under a heading are no ticket: their first line is no fault by its place
    first_line = text.split("\n", 1)[0]
    assert not [label for label in _pains(text) if label in (title, first_line)]


@pytest.mark.parametrize(
    "text",
    [
        # a change to make
        "Port the new toolbar layout to the mail window\n\nThe browser got it last year.",
        "Storage: add a retry option for uploads\n\nIt would help on slow links.",
        "Storage. Add a retry option for uploads\n\nIt would help on slow links.",
        # what should be, and a question
        "The import should keep the folder order\n\nIt sorts them by name today.",
        "Can the sidebar remember its width\n\nIt resets on every start.",
        "Why does the sidebar forget its width?\n\nSee above.",
        # a name, its first word read as a verb: no clause states a fault
        "Sorting tags\n\nSee the picture.",
    ],
)
def test_a_title_that_asks_for_a_change_or_only_names_a_thing_states_no_fault(text):
    title = text.split("\n", 1)[0]
    assert title not in [label for kind, label in _ticket(text) if kind == "pain"]


def test_a_listed_message_after_a_dash_is_labelled_without_the_dash():
    text = (
        "Archive import\n\nActual results:\n\nGot a reply:\nEither\n"
        '—"Archive index not readable"\nor\n—"Archive header missing"\n\n'
        "Expected results:\n\nThe import runs."
    )
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains and not any(label.startswith("—") for label in pains), pains


def test_a_title_fault_label_holds_no_run_of_spaces_where_a_code_name_was():
    text = "Uploads arrive under settings.storage.upload.naming rules\n\nSee the attached log."
    (pain,) = [label for kind, label in _ticket(text) if kind == "pain"]
    assert "  " not in pain and pain.startswith("Uploads arrive")


def test_a_tickets_tools_are_no_rivals_but_a_product_it_works_in_is():
    found = _ticket("We use Gradle for the build. The export works fine in Opera.")
    assert ("competitor", "Opera") in found
    assert ("competitor", "Gradle") not in found
    assert "competitor" not in {t for t, _ in _ticket("Я использую Docker для сборки.", "ru")}


def test_what_the_writer_used_to_bypass_a_fault_is_a_workaround():
    text = "For what it is worth, I used a local mirror to bypass this error."
    assert ("alternative", "local mirror") in _nodes(text)
    assert "pain" not in _types(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ship it behind a flag first, to check what fails.",  # a question to answer
        "The pool uses weak references for garbage collection.",  # a term
        "I first noticed this problem on a colleague's laptop.",  # where it was met
    ],
)
def test_a_problem_word_asked_about_used_as_a_term_or_met_is_no_pain(text):
    assert "pain" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Настраивать ничего не пришлось.",  # what the writer did not have to do
        "В баге 4521 поменяли обработку ошибок.",  # another ticket's work
        "Проблема существует уже несколько лет.",  # since when, no symptom
    ],
)
def test_russian_statements_that_tell_no_fault(text):
    assert "pain" not in _types(text, "ru"), _nodes(text, "ru")


def test_a_tickets_tools_listed_after_use_are_no_rivals():
    found = _ticket("We use Jira, Confluence and Slack every day. The upload fails.")
    assert "competitor" not in {kind for kind, _ in found}, found


def test_an_impersonal_need_in_an_english_ticket_is_no_job():
    found = _ticket("The memory grows. It is needed to clear the cache after each update.")
    assert "job" not in {kind for kind, _ in found}, found


def test_an_order_to_try_by_hand_is_no_pain():
    assert "pain" not in _types("Try this manually in both browsers.")
    assert "pain" in _types("I have to copy every address manually.")


def test_a_verdict_that_names_nothing_gives_way_to_the_fault():
    assert _pains("The export fails. It is also not good.") == ["export fails"]


def test_a_remedy_tried_in_vain_in_the_actual_results_is_no_pain():
    text = (
        "Video problem\n\nSteps to reproduce:\nOpen the page.\n\nActual results:\n"
        "Turning off the ad blocker did not change the behavior.\n"
    )
    labels = [label for kind, label in _ticket(text) if kind == "pain"]
    assert not any("blocker" in label for label in labels), labels


def test_an_occurring_verb_whose_subject_was_told_before_names_no_new_problem():
    # "This even happened when …": the pain's label keeps the verb, its subject told before
    assert points_back_at_a_problem("happened when I reopened the draft")
    # "What happened to the search bar?" says what became of it
    assert not points_back_at_a_problem("happened to the search bar")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The bundled parser is vulnerable to a known CVE.", "en"),
        ("В библиотеке есть уязвимость.", "ru"),
    ],
)
def test_a_security_vulnerability_is_a_pain(text, language):
    assert "pain" in _types(text, language), _nodes(text, language)


def test_what_a_product_of_the_ticket_can_do_names_no_rival():
    found = _ticket(
        "Шаги\n\nОткрыть файл.\n\nOpera умеет открывать такие файлы, а здесь ошибка.", "ru"
    )
    assert "competitor" not in {kind for kind, _ in found}, found
    found = _ticket("The upload fails. The storage layer provides no retry.")
    assert "competitor" not in {kind for kind, _ in found}, found


def test_the_only_way_round_under_actual_results_is_no_pain():
    text = (
        "Меню не закрывается\n\nШаги для воспроизведения:\nОткрыть меню.\n\n"
        "Фактический результат:\nЕдинственный способ выйти из меню — перезапустить программу.\n"
    )
    found = _ticket(text, "ru")
    assert not any(kind == "pain" and "способ" in label for kind, label in found), found
    assert "alternative" in {kind for kind, _ in found}, found


def test_a_jira_code_block_is_no_statement():
    text = (
        "The refresh loses groups.\n{code:java}\npublic void refresh() throws IOException {\n"
        "  cache.clear(); // the broken call fails here\n}\n{code}"
    )
    assert _pains(text) == ["loses groups"], _nodes(text)


def test_edge_alone_is_the_browser_and_after_a_phone_its_model():
    assert ("competitor", "Edge") in _nodes("Checked in Chrome and Edge.")
    assert "competitor" not in _types("I love it on my Galaxy S7 Edge.")


@pytest.mark.parametrize(
    "text",
    [
        "The problem has existed since then.",  # a bare problem word, said only to be there
        "The issue persists.",
        "This happened again when I reopened the tab.",  # its subject told before
        "I was about to file the bug.",  # the ticket, not a fault
        "Handy for triaging older bugs before a release.",
    ],
)
def test_a_problem_word_that_names_no_symptom_is_no_pain(text):
    assert "pain" not in _types(text), _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "The sidebar crashes when I open it.",
        "I filed an issue because the app crashes on start.",
        "It happens every time and the window freezes.",
    ],
)
def test_a_symptom_beside_a_problem_word_stays_a_pain(text):
    assert "pain" in _types(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Windows users cannot install the extension since the update.", "en"),
        ("Пользователи Windows не могут установить расширение после обновления.", "ru"),
    ],
)
def test_a_ticket_names_no_segment(text, language):
    # the same words in an interview note name a group of customers
    assert "segment" in _types(text, language)
    assert "segment" not in {kind for kind, _ in _ticket(text, language)}


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Жму F5, чтобы обновить список, но ничего не происходит.", None),  # a step's purpose
        ("Старый модуль больше не нужен, его надо удалить из сборки.", None),  # a code task
        ("Нужно заново вводить пароль при каждом запуске.", None),
        # the writer's own aim, told as "so that I can" or "in order to"
        (
            "Я поставил расширение, чтобы я мог сохранять вкладки, но оно не запускается.",
            "сохранять вкладки",
        ),
        (
            "Для того чтобы сохранить вкладки, я поставил расширение, но оно не запускается.",
            "сохранить вкладки",
        ),
    ],
)
def test_a_russian_ticket_tells_a_job_only_as_the_writers_aim(text, job):
    ticket = ExtractionRequest(text=text, language="ru", product="", records="bug_report")
    jobs = [n.label for n in extract_offline(ticket).nodes if n.type == "job"]
    assert jobs == ([job] if job else [])


def test_a_ticket_tells_a_job_only_as_what_its_writer_is_after():
    need = "Customers need to export their invoices, but the export button crashes."
    assert "job" in _types(need)  # in an interview note, the customers' job
    assert "job" not in {kind for kind, _ in _ticket(need)}
    asked = "Как вернуть старую панель инструментов?"
    assert "job" in {kind for kind, _ in _ticket(asked, "ru")}


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        ("Драйвер принтера игнорирует размер бумаги.", "драйвер принтера игнорирует размер бумаги"),
        ("Список писем бесконечно загружается.", "список писем бесконечно загружается"),
        ("Видео на странице не воспроизводится.", "видео на странице не воспроизводится"),
        ("Кнопки на панели не видны.", "кнопки на панели не видны"),
        ("Кнопка сохранения сломана.", "кнопка сохранения сломана"),
        ("Звука нет.", "звука нет"),
        # the genitive singular of «кнопка» and «страница» before «нет»
        ("Кнопки отмены нет.", "кнопки отмены нет"),
        ("Корзины нет.", "корзины нет"),
        # what shows or loads only in part
        ("Шапка сайта видна не полностью.", "шапка сайта видна не полностью"),
        ("Отчёт загружается частично.", "отчёт загружается частично"),
        # a fault the tracker cannot repeat, and troubles said to be absent, are none
        ("Проблема не воспроизводится.", None),
        ("В логах ошибок нет.", None),
        ("Вопросов нет.", None),
        ("Разницы нет.", None),
        # asked how to mend what the report told: no new fault
        ("Подскажите, пожалуйста, как это исправить?", None),
    ],
)
def test_russian_says_what_goes_wrong_in_its_own_constructions(text, pain):
    assert _pains(text, "ru") == ([pain] if pain else []), _nodes(text, "ru")


@pytest.mark.parametrize(
    "text",
    [
        "Проверено в другом браузере: Да, Opera",
        "В SeaMonkey страница пустая, а в Opera — нет.",
        "Opera и Vivaldi работают без проблем.",
    ],
)
def test_russian_names_a_product_where_the_fault_is_absent(text):
    assert ("competitor", "Opera") in _nodes(text, "ru")


@pytest.mark.parametrize(
    "text",
    [
        "I have not tried to remove the extension.",  # an attempt denied
        "Try to rate and pick options from the menus.",  # a step ordered
        "The change still needs to happen for the downloads module.",  # no one's goal
    ],
)
def test_an_attempt_denied_or_ordered_is_no_job(text):
    assert "job" not in _types(text, "en")


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Tried to access my drive on the web.", "access my drive on the web"),
        ("They don't want to lose their notes.", "lose their notes"),  # a goal of avoiding
    ],
)
def test_an_attempt_told_or_a_goal_of_avoiding_stays_a_job(text, job):
    assert ("job", job) in _nodes(text, "en")


def test_a_title_with_its_copula_left_out_states_a_clause():
    assert states_a_clause("page stuck in a loading loop")
    assert not states_a_clause("dead link")  # the adjective only names which link
    assert _pains("Layout engine ignores sidebar width") == ["layout engine ignores sidebar width"]
    assert _pains("I ignore the warnings.") == []


def test_a_russian_fault_of_what_cannot_be_seen_keeps_its_predicate():
    # «видно» can also be read as "apparently", a conjunction a label must not end on
    assert _pains("Кнопки сохранения больше не видно.", "ru") == [
        "кнопки сохранения больше не видно"
    ]


def test_what_ought_to_be_against_what_is_not_is_no_fault():
    assert _pains("Поле даты должно быть пустым, а не нулём.", "ru") == []
    # what the product did where another thing was meant stays one
    assert _pains("Отчёт сохраняется в загрузки, а не в папку проекта.", "ru") != []


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("После обновления открывается пустая страница.", True),
        ("При запуске игры чёрный экран.", True),
        ("Отчёт отображается в браузере совершенно пустым.", True),
        ("После входа страница пустая.", True),
        ("Экран чёрный после запуска.", True),
        ("Оставляю поле пустым и нажимаю «Сохранить».", False),
        ("Купил белый чехол к телефону.", False),
    ],
)
def test_a_russian_blank_screen_is_a_fault_and_an_empty_field_is_not(text, fault):
    assert bool(_pains(text, "ru")) is fault, _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("The preview opens an empty pop-up window.", True),
        ("The dialog shows an empty list.", True),
        ("The tags field stays empty after saving.", True),
        ("Leave the field empty and press Save.", False),
        ("I bought an empty notebook for the meeting.", False),
    ],
)
def test_an_english_empty_surface_shown_or_left_is_a_fault(text, fault):
    assert bool(_pains(text)) is fault, _nodes(text)


@pytest.mark.parametrize(
    "text", ["No scrollbar on the settings page.", "No gap between the tiles."]
)
def test_an_english_part_of_the_screen_said_missing_is_a_fault(text):
    assert _pains(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        # what happens, not the condition set off before it by its comma
        ("When I press F9, nothing happens.", "nothing happens"),
        # what ends unasked
        ("The language server terminated unexpectedly.", "language server terminated unexpectedly"),
        # a tool's complaint is its error, not a grievance about its object
        ("The type checker complains about valid code.", "type checker complains about valid code"),
    ],
)
def test_an_english_report_of_what_happens(text, label):
    assert _pains(text) == [label], _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "The booking portal is inaccessible since Monday.",
        "The sync server is unreachable from the office.",
        "The manual is full of misspelled words.",
        "Half of the mirrors in the list are defunct.",
        "The report table has excessive padding in every cell.",
        "The thumbnails look crippled after the update.",
    ],
)
def test_words_of_malfunction_state_a_fault(text):
    assert _pains(text), _nodes(text)


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("Ошибок при импорте не нашёл.", False),
        ("Опечаток в новом разделе не заметил.", False),
        ("В справке полно опечаток.", True),
        ("Ошибки в разметке так и не исправлены.", True),
    ],
)
def test_a_russian_problem_in_the_genitive_before_a_denied_verb_is_absent(text, fault):
    assert bool(_pains(text, "ru")) is fault, _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("Nothing is selectable in the settings panel.", True),
        ("None of the menu items respond.", True),
        ("No tab in the sidebar is clickable.", True),
        ("Nothing is more reliable than the desktop client.", False),
        ("No problems downloading the reports.", False),
    ],
)
def test_a_subject_that_denies_every_thing_states_a_fault(text, fault):
    assert bool(_pains(text)) is fault, _nodes(text)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Please add support for dark mode.", "support for dark mode"),
        ("Add support for more calendar formats", "support for more calendar formats"),
    ],
)
def test_a_bare_feature_head_is_named_with_its_complement(text, feature):
    assert ("feature", feature) in _nodes(text)
    assert ("feature", "support") not in _nodes(text)


def test_a_measure_with_an_aside_in_brackets_is_still_a_metric():
    assert ("metric", "sync takes 40 minutes") in _nodes("The sync takes 40 minutes (on Wi-Fi).")
    found = _nodes("Потребление памяти доходит до 2GB (гигабайта).", "ru")
    assert ("metric", "потребление памяти доходит до 2GB") in found


def test_a_measure_told_under_actual_results_is_a_metric_not_a_fault():
    text = (
        "Slow report export\n\nActual results:\n\nThe export uses about 2GB of memory.\n\n"
        "Expected results:\n\nThe export finishes quickly."
    )
    found = _ticket(text)
    assert any(kind == "metric" and "2GB" in label for kind, label in found), found
    assert not any(kind == "pain" and "2GB" in label for kind, label in found), found


def test_lines_a_lead_in_shows_under_actual_results_are_its_examples():
    text = (
        "Labels overlap on the order page\n\nActual results:\n\nOverlapping labels:\n"
        "The seller rating over the return policy.\nThe delivery date over the shipping cost.\n\n"
        "Expected results:\n\nNo overlapping labels."
    )
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains and not any("seller" in p or "delivery" in p for p in pains), pains


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (
            "Окно настроек не открывается\n\nФактический результат:\n\n"
            "После перезагрузки компьютера всё нормально.",
            "ru",
        ),
        (
            "Settings window does not open\n\nActual results:\n\n"
            "After a reboot everything works again.",
            "en",
        ),
    ],
)
def test_a_statement_that_all_is_well_under_actual_results_is_no_fault(text, language):
    pains = [label for kind, label in _ticket(text, language) if kind == "pain"]
    assert len(pains) == 1 and "перезагрузки" not in pains[0] and "reboot" not in pains[0], pains


@pytest.mark.parametrize(
    ("text", "language", "left_out"),
    [
        (
            "Attached files fail to open\n\nActual results:\n\n"
            "Attached files fail to open from the inbox. Forwarding the mail works. "
            "Printing works fine.",
            "en",
            ("forwarding", "printing"),
        ),
        (
            "Вложения не открываются\n\nФактический результат:\n\n"
            "Вложения не открываются из входящих. Пересылка письма работает нормально.",
            "ru",
            ("пересылка",),
        ),
        # any verb done right
        (
            "Keywords of bookmarks\n\nActual results:\n\n"
            "The description field is filled in correctly.\nThe keywords field stays empty.",
            "en",
            ("description",),
        ),
        (
            "Ключевые слова закладок\n\nФактический результат:\n\n"
            "Заголовок заполнен правильно.\nПоле ключевых слов остаётся пустым.",
            "ru",
            ("заголовок",),
        ),
    ],
)
def test_what_works_under_actual_results_is_no_fault(text, language, left_out):
    pains = [label.lower() for kind, label in _ticket(text, language) if kind == "pain"]
    assert len(pains) == 1 and not any(w in pains[0] for w in left_out), pains


def test_under_actual_results_what_works_only_in_part_is_still_a_fault():
    text = "The toolbar is wrong\n\nActual results:\n\nOnly the first button works."
    pains = [label for kind, label in _ticket(text, "en") if kind == "pain"]
    # its label keeps "only": without it, it says the opposite
    assert "only the first button works" in pains, pains


def test_what_a_fault_does_not_affect_is_no_fault():
    text = "Syntax highlighting is broken\n\nThe Python files are not affected."
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains == ["syntax highlighting is broken"], pains


@pytest.mark.parametrize(
    ("text", "language", "vague"),
    [
        (
            "www.example-shop.com - Checkout button does nothing\n\n"
            "**Description**: Page not displaying properly\n**Steps to Reproduce**:\n"
            "Clicking the checkout button does nothing.",
            "en",
            "correctly",
        ),
        (
            "Кнопка оплаты не нажимается\n\nСтраница отображается некорректно. "
            "Кнопка оплаты не нажимается.",
            "ru",
            "некорректно",
        ),
        (
            "www.example-shop.com - Some missing items\n\nThe search box does not open.",
            "en",
            "items",
        ),
    ],
)
def test_a_vague_verdict_on_the_page_yields_to_what_is_wrong(text, language, vague):
    assert gives_only_a_vague_verdict("some missing items")
    assert gives_only_a_vague_verdict("Многие элементы отсутствуют")
    assert not gives_only_a_vague_verdict("the cart items are missing")
    pains = [label for kind, label in _ticket(text, language) if kind == "pain"]
    # the title that says too little neither stays nor stands for the fault the body tells
    assert pains and not any(vague in p for p in pains), pains
    alone = "www.example-shop.com - site issue\n\n**Description**: Page not displaying properly"
    assert [label for kind, label in _ticket(alone) if kind == "pain"] == [
        "page not displaying properly"
    ]


@pytest.mark.parametrize(
    "label",
    [
        "Некоторых элементов нет",
        "Не хватает некоторых элементов",
        "Не все элементы показываются",
        "Not all elements are displayed",
        "The webpage is totally unusable",
        "The internet site is not usable",
        "Poorly rendered webpage",
        "Страницей вообще нельзя пользоваться",
    ],
)
def test_a_verdict_that_some_is_missing_or_all_unusable_is_vague(label):
    assert gives_only_a_vague_verdict(label)


def test_an_unusable_site_beside_what_is_wrong_with_it_is_no_second_fault():
    text = "Каталог магазина\n\nКартинки товаров не загружаются. Страницей нельзя пользоваться."
    pains = [label for kind, label in _ticket(text, "ru") if kind == "pain"]
    assert pains and not any("пользоваться" in p for p in pains), pains


def test_the_setup_an_english_reproduction_step_tells_is_no_pain():
    text = "Menu broken\n\nSteps:\n1. Open the settings without being logged in.\n2. Click Save."
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains == ["menu broken"], pains


def test_a_heading_that_names_a_record_of_problems_is_no_pain():
    text = "The side panel is broken\n\nCrash Logs\n\nThe side panel opens and closes at once."
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains and not any("Logs" in p for p in pains), pains
    assert names_a_record_of_problems("crash log")
    assert not names_a_record_of_problems("memory leak")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("After the update the toolbar looks different.", "en"),
        ("После обновления шрифт в меню стал выглядеть по-другому.", "ru"),
    ],
)
def test_what_an_update_changed_is_a_fault(text, language):
    assert "pain" in _types(text, language), _nodes(text, language)
    # a choice the writer made after it is none
    chosen = {
        "en": "After the update I use a different theme.",
        "ru": "После обновления я выбрал другую тему.",
    }
    assert "pain" not in _types(chosen[language], language)


def test_a_message_quoted_whole_under_actual_results_is_one_fault():
    text = (
        "Sync warning\n\nActual results:\n\n"
        "“The server may be busy. The sync goes on when it answers.”\n\n"
        "Expected results:\nNo warning."
    )
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains and not any("answers" in p for p in pains), pains


def test_a_label_takes_a_message_that_closes_after_its_stop():
    text = (
        'Upload warning\n\nActual results:\n\nThe dialog says "Upload failed." The list is empty.'
    )
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert 'dialog says "Upload failed."' in pains, pains


@pytest.mark.parametrize(
    "text",
    ["The scrolling is very jerky.", "The audio is garbled.", "No spaces between the tiles."],
)
def test_motion_sound_and_layout_gone_wrong_are_pains(text):
    assert "pain" in _types(text), _nodes(text)


def test_a_part_said_to_have_no_problems_is_no_pain():
    assert "pain" not in _types("I had no menu issues."), _nodes("I had no menu issues.")
    assert "pain" in _types("There is no menu button.")


@pytest.mark.parametrize(
    ("text", "language", "title"),
    [
        (
            "Updates do not work\n\nYou can update the program manually from the site.",
            "en",
            "updates do not work",
        ),
        (
            "Обновления не работают\n\nВы можете обновить программу вручную с сайта.",
            "ru",
            "обновления не работают",
        ),
    ],
)
def test_a_way_offered_to_the_reader_is_no_work_the_writer_bears(text, language, title):
    assert [label for kind, label in _ticket(text, language) if kind == "pain"] == [title]


def test_a_quote_leaves_out_the_lines_list_or_quotation_mark():
    request = ExtractionRequest(
        text="Shop page problems\n\n> - The cart button is missing\n» The sidebar does not open",
        language="en",
        product="",
        records="bug_report",
    )
    quotes = [n.quote for n in extract_offline(request).nodes if n.type == "pain"]
    assert quotes and all(q[0].isalnum() for q in quotes), quotes
    # a minus sign is no list mark
    signed = ExtractionRequest(
        text="Value wrong\n\n-1 is returned instead of 0.",
        language="en",
        product="",
        records="bug_report",
    )
    assert "-1 is returned instead of 0" in [n.quote for n in extract_offline(signed).nodes]
    # nor a quotation mark whose close it leaves out
    opened = ExtractionRequest(
        text=(
            "Sync warning\n\nActual results:\n\n“The server may be busy, or it may have "
            "stopped responding. You can wait for it or cancel.”"
        ),
        language="en",
        product="",
        records="bug_report",
    )
    quotes = [n.quote for n in extract_offline(opened).nodes if n.type == "pain"]
    assert quotes and not any(q.startswith("“") and "”" not in q for q in quotes), quotes


def test_a_share_of_missing_content_is_no_feature_asked_for():
    found = _nodes("На главной странице не хватает многих иконок и шрифтов.", "ru")
    assert "feature" not in {kind for kind, _ in found}, found
    assert "pain" in {kind for kind, _ in found}, found
    asked = _nodes("Очень не хватает функции печати.", "ru")
    assert "feature" in {kind for kind, _ in asked}, asked


def test_one_failure_to_act_told_twice_is_one_fault():
    text = "Описание: Не удаётся подключиться.\nБольше не могу подключиться. Список задач висит."
    pains = [label for kind, label in _ticket(text, "ru") if kind == "pain"]
    assert len([p for p in pains if "подключиться" in p]) == 1, pains
    assert any("висит" in p for p in pains), pains


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("которая выглядит совсем пустой", "starts on 'которая'"),
        ("who cannot sign in", "starts on 'who'"),
        ("uploads of type image/", "ends on a path separator"),
    ],
)
def test_a_label_cut_from_its_antecedent_or_inside_a_name_is_a_fragment(label, reason):
    assert fragment_reason(label) == reason


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        # a preposition's phrase that modifies the subject noun reads on to it
        ("Плагины для Python сломаны в версии 1.60.", "плагины для Python"),
        # a thing that gets lost is named before its verb
        ("Настройки теряются после обновления.", "настройки"),
    ],
)
def test_a_russian_pain_keeps_its_subject(text, subject):
    (pain,) = _pains(text, "ru")
    assert pain.startswith(subject), pain


def test_a_pain_told_inside_a_short_quote_takes_the_whole_quote_and_what_it_names():
    (pain,) = _pains('Появляется сообщение "Не получается открыть файл".', "ru")
    assert pain == 'сообщение "Не получается открыть файл"'


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Окно зависает вместо того, чтобы открыться.", "окно зависает"),
        ("Курсор прыгает туда, куда не надо.", "курсор прыгает"),
    ],
)
def test_a_russian_label_leaves_out_the_opening_of_the_clause_after_it(text, label):
    assert _pains(text, "ru") == [label]


def test_a_pain_told_in_a_relative_clause_keeps_what_it_is_about():
    text = "После обновления появилась серая полоса, которая не даёт нажать на кнопки."
    (pain,) = _pains(text, "ru")
    assert "серая полоса, которая не даёт нажать на кнопки" in pain


@pytest.mark.parametrize(
    "text",
    [
        # the lexicon writes «ё», the lemmas come with «е»: both spellings are read
        "Иконки на панели выглядят покорёженными.",
        "Таблица на странице отображается криво.",
        "Экспорт добавляет ненужную пустую колонку.",
        "В разделе справки полно опечаток.",
        "Неработающий фильтр в таблице.",
        "Неюзабельный интерфейс настроек.",
        # what a tool reports as an error: «ругается на»
        "Линтер ругается на правильный код.",
    ],
)
def test_russian_words_of_malfunction_state_a_fault(text):
    assert _pains(text, "ru"), _nodes(text, "ru")


@pytest.mark.parametrize(
    "text",
    [
        "Thanks to Marta for describing this bug so well.",
        "Split from bug 4711 because the Windows installer is a different process.",
    ],
)
def test_where_a_ticket_came_from_or_who_described_it_is_no_fault(text):
    assert _pains(text) == [], _nodes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Выделено из бага 4711, потому что установщик для Windows — отдельный процесс.",
        "Баг был внесён в версии 3.2 вместе с новым парсером.",
    ],
)
def test_where_a_russian_ticket_or_its_bug_came_from_is_no_fault(text):
    assert _pains(text, "ru") == [], _nodes(text, "ru")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (
            "Dead link to the user guide\n\n1. Open Help\n2. Click the link to the user guide\n"
            "   » Page not found",
            "en",
        ),
        (
            "Битая ссылка в справке\n\n1. Открыть справку\n2. Нажать на ссылку на руководство\n"
            "   » Страница не найдена",
            "ru",
        ),
        # the error page in another language than the title is no body that the title gives
        # way to
        (
            "Мёртвые ссылки на странице загрузки\n\nНа странице я нашёл несколько мёртвых "
            'ссылок:\n\n- [заметки](https://example.org/notes): "Page not found"',
            "ru",
        ),
    ],
)
def test_the_error_page_a_dead_link_opens_is_that_one_fault(text, language):
    pains = [label for kind, label in _ticket(text, language) if kind == "pain"]
    assert len(pains) == 1, pains
    assert "ссылк" in pains[0] or "link" in pains[0]
    # the same page told of no dead link is the fault itself
    assert _pains("The checkout page shows Error 404.")


def test_a_sentence_is_read_in_the_language_it_is_told_in_not_the_one_it_quotes():
    text = '[De] help_index.xhtml: Мёртвая ссылка на "Getting Started with the Desktop Mail Client"'
    assert _pains(text, "ru") == ["мёртвая ссылка"], _nodes(text, "ru")


def test_list_markers_are_layout_not_words_of_a_label():
    text = (
        "Toolbar icons\n\nActual results:\n\n1/ Duplicate icons for separators\n\nExpected:\n\nOne."
    )
    assert ("pain", "duplicate icons for separators") in _ticket(text)


def test_a_number_in_a_reproduction_step_is_no_measure():
    text = (
        "Edits are lost\n\nSteps to reproduce:\n1. Spend 30 minutes editing the file.\n"
        "2. Save the file.\n\nActual results:\n\nThe edits are lost."
    )
    assert "metric" not in {kind for kind, _ in _ticket(text)}
    assert ("metric", "memory use was 7+ GBytes") in _nodes("Memory use was 7+ GBytes.")


def test_a_site_heading_the_title_it_reports_on_is_no_part_of_the_fault():
    found = _ticket("shop.example.com - Checkout button does not work\n\nNothing happens.")
    assert ("pain", "checkout button does not work") in found, found


def test_a_pictograph_ending_a_statement_is_no_word_of_its_label():
    text = "Search results\n\nActual results:\n\nempty result list 😥\n\nExpected:\n\nResults."
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains == ["empty result list"], pains


@pytest.mark.parametrize("text", ["The upload fails. It works in Opera.", "Works fine in Opera."])
def test_another_product_the_fault_spares_is_a_competitor(text):
    assert ("competitor", "Opera") in _ticket(text)


def test_where_a_bug_came_from_is_no_fault_of_its_own():
    text = "The export button does nothing. The bug was introduced with version 4.1."
    assert _pains(text) == ["export button does nothing"], _nodes(text)
    # a named failure keeps its statement, whatever it tells of its start
    assert _pains("The crash was introduced with version 4.1.")


def test_a_tickets_alternative_is_a_way_round_it_tells_not_a_medium_it_names():
    text = "Sent mail is lost when the server is slow, so I keep a copy in Excel by hand."
    assert "alternative" in _types(text)  # in an interview note, the medium they fall back on
    ticket = "Attachments lost\n\nSending a message with Excel attachments drops them."
    assert "alternative" not in {kind for kind, _ in _ticket(ticket)}
    told = "Attachments lost\n\nThe only workaround is to zip the files before sending."
    assert "alternative" in {kind for kind, _ in _ticket(told)}


@pytest.mark.parametrize(
    ("title", "fault"),
    [
        ("Fix the account manager in the preferences pane", False),
        ("Stop using display names as cache keys", False),
        ("Add missing headers to the mail code", False),
        ("Fix the crash on save", True),
    ],
)
def test_a_ticket_named_by_its_task_states_no_fault(title, fault):
    pains = [label for kind, label in _ticket(f"{title}\n\nSee the patch.") if kind == "pain"]
    assert bool(pains) is fault, pains
    # in a review, "fix the widget" still presupposes it is broken
    assert _pains("Please fix the widget.")


@pytest.mark.parametrize(
    ("text", "competitor"),
    [
        ("The upload fails. Works fine with Opera 117.0a1.", True),
        ("The page is broken. Vivaldi is working, but has other faults.", True),
        ("The sync works fine with Dropbox.", False),  # an integration, no release named
    ],
)
def test_a_release_of_another_product_that_works_is_a_competitor(text, competitor):
    assert ("competitor" in {kind for kind, _ in _ticket(text)}) is competitor, _ticket(text)


def test_a_competitors_quote_keeps_the_release_it_names():
    request = ExtractionRequest(
        text="Upload broken\n\nWorks fine in Opera 117 on the same machine.",
        language="en",
        product="",
        records="bug_report",
    )
    found = [(n.label, n.quote) for n in extract_offline(request).nodes if n.type == "competitor"]
    assert found == [("Opera", "Works fine in Opera 117")], found


def test_a_name_said_not_to_work_right_is_no_competitor():
    text = "www.example.com - Webstore is not loading correctly\n\nScroll down."
    assert "competitor" not in {kind for kind, _ in _ticket(text)}, _ticket(text)
    works = "Page broken\n\nVivaldi loads it fine."
    assert ("competitor", "Vivaldi") in _ticket(works)


def test_a_tickets_example_is_no_competitor():
    text = "History keeps coming back\n\nIt lists the saved items, including URLs and forms."
    assert "competitor" not in {kind for kind, _ in _ticket(text)}, _ticket(text)
    # in a review, "apps like Evernote" names a rival
    assert ("competitor", "Evernote") in _nodes("I tried apps like Evernote before this one.")


@pytest.mark.parametrize(
    ("told", "rival"),
    [
        ("Vivaldi 6.5 has no such problem.", True),
        ("Vivaldi browser don't have problem.", True),
        ("The exported files had no problems.", False),
    ],
)
def test_a_product_said_to_have_no_problem_is_a_competitor(told, rival):
    found = {kind for kind, _ in _ticket(f"Page broken\n\n{told}")}
    assert ("competitor" in found) is rival, _ticket(f"Page broken\n\n{told}")


@pytest.mark.parametrize("told", ["Ctrl+K works.", "It did work in Version 4.2.1."])
def test_a_key_combination_or_a_version_is_no_competitor(told):
    found = _ticket(f"Search broken\n\n{told}")
    assert "competitor" not in {kind for kind, _ in found}, found


def test_when_a_fault_began_told_alone_under_actual_results_is_no_fault():
    text = (
        "Quick view broken\n\nActual results:\n\nThe quick view shows only a spinner. "
        "It has been like this since May.\n\nExpected results:\n\nA box with details."
    )
    pains = [label for kind, label in _ticket(text) if kind == "pain"]
    assert pains and not any("since" in p for p in pains), pains


@pytest.mark.parametrize(
    ("statement", "only_when"),
    [
        ("It has been like this since May.", True),
        ("Так уже третью неделю.", True),
        ("This crashes since the update.", False),
        ("Так не работает с версии 2.", False),
    ],
)
def test_a_statement_of_only_since_when(statement, only_when):
    assert tells_only_since_when(statement) is only_when


@pytest.mark.parametrize(
    ("phrase", "nominative"),
    [
        ("тёмную тему", "тёмная тема"),
        ("поддержку Markdown в заметках", "поддержка Markdown в заметках"),
        ("отдельную вкладку", "отдельная вкладка"),
        ("темную тему", "темная тема"),  # the writer's «е» for «ё» stays
        ("возможность группировать вкладки", "возможность группировать вкладки"),
        ("экспорт в PDF", "экспорт в PDF"),  # may already be nominative
        ("Ctrl+S", "Ctrl+S"),
    ],
)
def test_a_russian_phrase_is_named_in_the_nominative(phrase: str, nominative: str) -> None:
    assert in_the_nominative(phrase) == nominative


def test_a_ticket_title_asking_politely_for_a_change_is_a_feature_not_a_pain():
    text = "Please add an option to disable smooth scrolling\n\nSmooth scrolling makes me dizzy."
    found = _ticket(text)
    assert ("feature", "disable smooth scrolling") in found, found
    assert not any(kind == "pain" and label.startswith("Please") for kind, label in found), found

"""English features in the offline engine: a feature is a function of the product, named by a
noun phrase ("a dark theme") or by what its user does with it ("export reports"). How a thing
behaves, a fault, or what is said about it is none.

Examples are invented for these tests; none is taken from the evaluation data.
"""

from __future__ import annotations

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.feature_phrases import without_judgement
from kg.llm.offline.uses import activity_spans, behaviour_of_a_thing, done_by_hand
from kg.llm.prompts.extraction_models import ExtractionRequest


def _features(text: str) -> set[str]:
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    return {n.label for n in answer.nodes if n.type == "feature"}


@pytest.mark.parametrize(
    ("text", "behaviour"),
    [
        ("The sidebar lingers on the screen after I close it.", "lingers"),
        ("The banner floats over the text on small screens.", "floats"),
        # after "doesn't" a word is a verb, whatever a tagger reads
        ("Sadly it doesn't really count as a backup.", "count"),
        ("We rebooted twice but it doesn't make any difference.", "difference"),
    ],
)
def test_how_a_thing_behaves_is_no_feature(text, behaviour):
    assert not any(behaviour in f for f in _features(text)), _features(text)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        # a function of the product said of it with no object is still one
        ("It syncs with my laptop every night.", "syncs"),
        # a person doing something with a preposition's object is a use
        ("I browse through the archive on Sundays.", "browse through the archive"),
        # said of a thing with an object, the verb acts on something
        ("It continues to show me old invoices.", "show"),  # "continues to" only frames it
    ],
)
def test_functions_and_uses_stay_features(text, feature):
    assert feature in _features(text)


def test_the_subject_of_a_verb_is_found_past_aspect_and_relatives():
    text = "Drafts that are beginning to gather in the outbox"
    at = text.index("gather")
    assert behaviour_of_a_thing(text, (0, len(text)), at)
    text = "I keep going back to the archive"
    assert not behaviour_of_a_thing(text, (0, len(text)), text.index("going"))


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("Somehow I keep losing my drafts in this editor.", "losing"),
        ("Twice a week I lose my bookmarks in this reader.", "lose"),
    ],
)
def test_a_fault_or_mishap_told_by_its_verb_is_no_feature(text, fault):
    assert not any(fault in f for f in _features(text)), _features(text)


def test_the_part_a_fault_is_said_of_stays_a_feature():
    assert "layout editor" in _features("The new version ruins the whole layout editor.")


@pytest.mark.parametrize(
    "text",
    [
        "Our testers complain that printing labels from the order page freezes.",
        "Reviewers mention that some thumbnails from a trip look washed out.",
        # a part's name ("note", "report") used as the verb of saying
        "Personally I note that two colleagues avoid the sidebar.",
    ],
)
def test_a_verb_of_saying_before_that_tells_a_clause_not_a_use(text):
    features = _features(text)
    assert not any(f.startswith(("complain", "mention", "note")) for f in features), features


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("The rota still lives on paper lists.", "paper"),
        ("Coaches send training plans through Telegram channels.", "channels"),
    ],
)
def test_what_another_tool_holds_is_a_workaround_not_a_feature(text, tool):
    assert not any(tool in f for f in _features(text)), _features(text)


def test_a_paper_one_writes_is_no_tool():
    assert "drafting a paper" in _features("It is handy for drafting a paper on the train.")


def test_a_tool_the_product_works_with_is_part_of_its_feature():
    assert "syncs with Google Sheets" in _features("It even syncs with Google Sheets.")


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Store clerks need to reprint price labels before opening.", "reprint price labels"),
        ("Night nurses need to swap shifts before the weekend.", "swap shifts"),
    ],
)
def test_what_a_group_needs_to_do_is_its_job_not_a_feature(text, job):
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    assert any(n.type == "job" and n.label.startswith(job) for n in answer.nodes)
    assert not _features(text)


def test_what_a_writer_wants_to_do_with_the_product_is_still_a_feature():
    assert "browse my albums" in _features("I simply want to browse my albums by year.")


def test_a_part_name_after_a_subject_with_an_infinitive_after_it_is_a_verb():
    assert _features("They plan to add a bedtime timer to the player.") == {"bedtime timer"}


def test_a_feature_a_rival_offers_is_its_whole_noun_phrase_once():
    text = "Rivals such as Tasklio already offer shared packing lists."
    assert _features(text) == {"shared packing lists"}


@pytest.mark.parametrize(
    "text",
    [
        "Our volunteers hate copying the sign-up sheets by hand.",
        "Librarians dread stamping returned books by hand every evening.",
    ],
)
def test_work_done_by_hand_is_the_chore_not_a_feature(text):
    assert not _features(text)


def test_how_a_function_is_used_otherwise_keeps_it():
    assert "exporting playlists" in _features("I love exporting playlists with one tap.")
    text = "Cashiers copy receipts by hand"
    assert done_by_hand(text, (0, len(text)), (8, 21))
    assert not done_by_hand(text, (0, 14), (8, 13))


@pytest.mark.parametrize(
    "text",
    [
        "Every spring the landlord raises the fees.",
        "Sorting the inbox eats a whole morning.",
        "I love that it saves me a morning every week.",
    ],
)
def test_what_something_costs_is_no_feature(text):
    assert not _features(text)


def test_prices_a_user_works_with_are_still_a_use():
    assert "compare prices" in _features("I compare prices across shops in seconds.")


@pytest.mark.parametrize(
    "text",
    [
        "Our aim is to double weekly uploads this year.",
        "From the poll: 30% of playlists are shared once.",
    ],
)
def test_what_a_goal_aims_at_or_a_share_counts_is_no_feature(text):
    assert not _features(text)


def test_a_time_a_function_takes_keeps_the_function():
    assert "playlist" in _features("It takes a minute to open the playlist.")


def test_what_someone_has_to_do_is_the_chore_a_fault_forces_not_a_feature():
    assert not _features("Each Friday the nurse has to call the pharmacy.")
    assert "email the whole team" in _features("I love that I can email the whole team.")


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("We will build a pantry list that suggests recipes.", "pantry list"),
        (
            "Rivals such as Tasklio offer a packing planner that suggests items for each trip.",
            "packing planner",
        ),
    ],
)
def test_a_planned_or_offered_feature_is_its_noun_phrase_and_its_clause_describes_it(text, feature):
    assert _features(text) == {feature}


@pytest.mark.parametrize(
    "text",
    [
        "A tidy app for fishermen who rarely sail far.",
        "A handy app for freelance plumbers who travel a lot.",
    ],
)
def test_the_people_an_app_is_for_are_its_segment_not_a_use(text):
    assert not _features(text)


def test_selling_to_people_names_a_market_and_selling_things_stays_a_use():
    assert not _features("The studio sells to small dental clinics across the region.")
    assert "sell vintage clothes" in _features("Great place to sell vintage clothes.")


def test_a_phrase_of_time_is_no_object_of_a_use():
    assert not _features("I love that I can watch them in the morning.")
    assert "send them to any printer" in _features("You can send them to any printer.")


def test_the_connection_a_device_has_is_where_the_app_runs_not_a_feature():
    assert _features("Lately I can have perfect reception and it still won't sync.") == {"sync"}
    assert "connect to a hotspot" in _features("It will not connect to a hotspot at all.")


def test_a_word_in_the_s_form_after_a_determiner_is_the_object_not_a_new_verb():
    assert _features("I can stream the newest shows at home.") == {"stream the newest shows"}


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("A clever budgeting tool for students.", "budgeting"),
        ("Honestly the backup feature is a lifesaver.", "backup feature"),
    ],
)
def test_a_compound_with_a_word_for_the_means_or_for_features_names_the_use(text, feature):
    assert feature in _features(text)


@pytest.mark.parametrize(
    ("text", "activity"),
    [
        ("A small fee for journaling, but worth it.", "journaling"),
        ("My budgeting got so much better with it.", "budgeting"),
    ],
)
def test_an_ing_form_used_as_a_noun_names_an_activity(text, activity):
    assert _features(text) == {activity}


def test_an_ing_form_after_some_or_with_its_particle_names_no_activity_of_its_own():
    assert not _features("It took some adjusting at first.")
    text = "Perfect for warming up at the gym."
    assert not activity_spans(text, (0, len(text)))


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("Guests can pick what they want to hear.", "pick what they want to hear"),
        ("It is tricky to find what I am searching for in there.", "find what I am searching"),
        ("It keeps my receipts sorted by month.", "keeps my receipts sorted"),
    ],
)
def test_a_clause_or_a_state_completes_a_use(text, use):
    assert use in _features(text)


def test_the_product_kept_up_to_date_by_its_makers_is_no_use():
    assert not any(f.startswith("keep") for f in _features("The makers keep it organized for us."))


def test_a_part_tagged_an_adjective_that_heads_its_phrase_is_a_part():
    assert {"picture", "audio"} <= _features("Sadly the picture and audio are out of sync.")


@pytest.mark.parametrize(
    ("text", "feature", "complaint"),
    [
        # a judging adjective is the complaint, not the name of the part
        ("I really hate the sluggish payment screen.", "payment screen", "sluggish"),
        ("What a gorgeous calendar widget.", "calendar widget", "gorgeous"),
        # a failure verb is the complaint; what it harmed, a part of the product, is the feature
        ("Since Monday it keeps losing my playlists.", "playlists", "losing"),
        ("It forgets my notification settings after a reboot.", "notification settings", "forgets"),
        # a fault named after what has it
        ("Constant upload errors since the spring release.", "upload", "errors"),
    ],
)
def test_a_feature_is_named_without_the_words_of_a_complaint(text, feature, complaint):
    features = _features(text)
    assert feature in features, features
    assert not any(complaint in f.split() for f in features), features


@pytest.mark.parametrize(
    ("text", "harmed"),
    [
        # what a failure harmed that is no part of the product names no feature
        ("The game kills the battery within an hour.", "battery"),
        ("The editor corrupts the spreadsheets I open.", "spreadsheets"),
        ("The alarms frighten the dog at night.", "dog"),
    ],
)
def test_a_failure_that_harms_no_part_of_the_product_names_no_feature(text, harmed):
    assert not any(harmed in f for f in _features(text)), _features(text)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        # a quality said of a use: the use is the feature
        ("I love the simplicity of scanning receipts.", "scanning receipts"),
        # how long a function takes is said of that function
        ("Now it needs forty seconds to sync.", "sync"),
    ],
)
def test_a_quality_or_a_time_said_of_a_function_leaves_the_function(text, feature):
    assert feature in _features(text), _features(text)


@pytest.mark.parametrize(
    "text",
    [
        "Sound quality aside, the quality is superb.",
        "A decent tool for the money.",
        "I admire the ease of use.",
    ],
)
def test_a_quality_or_worth_standing_alone_names_no_feature(text):
    features = _features(text)
    assert not features & {"quality", "money", "ease of use", "use"}, features


def test_a_fault_after_a_verb_that_handles_it_is_the_verbs_object():
    # "report bugs" is a function, not a fault of a part named "report"
    assert "report crashes" in _features("You can report crashes from the help page.")


def test_without_judgement_reads_labels():
    parts = frozenset({"map", "playlist"})
    assert without_judgement("clunky map", parts) == "map"
    # deleting is a function, not a failure
    assert without_judgement("deleting my playlists", parts) == "deleting my playlists"
    assert without_judgement("keeps wrecking my playlists", parts) == "playlists"
    assert without_judgement("wrecks my evenings", parts) == ""
    assert without_judgement("map issues", parts) == "map"
    assert without_judgement("free map", parts) == "free map"  # a kind of map


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("The slides in my deck show up out of order.", "order"),
        ("I want the comments in order of rating.", "order"),
        ("Long story short, the exporter is back.", "story"),
    ],
)
def test_a_part_name_inside_a_set_phrase_is_no_part(text, word):
    assert not any(word in f.split() for f in _features(text)), _features(text)


def test_a_part_name_outside_a_set_phrase_is_still_the_part():
    assert "order" in _features("My last order never showed up in the app.")
    assert "story" in _features("I posted a story and nobody could see it.")

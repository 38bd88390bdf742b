"""Complaints as app-store reviewers write them: the offline extractor finds a pain in each, and
its label is a whole statement of the problem. The sentences are invented."""

from __future__ import annotations

import pytest

from kg.llm.offline.extractor import extract_offline
from kg.llm.offline.labels import fragment_reason
from kg.llm.prompts.extraction_models import ExtractionRequest


@pytest.fixture(autouse=True)
def _rules_alone(settings):
    """These tests state what the complaint rules make; the learned gate after them
    (tests/kg/test_extraction_gate.py) drops some of their bare pains ("fixed soon")."""
    settings.EXTRACTION_GATE = False


def _pains(text: str) -> list[str]:
    answer = extract_offline(ExtractionRequest(text=text, language="en", product=""))
    return [n.label for n in answer.nodes if n.type == "pain"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the pattern's words end on "all" or start on "until": the grammar's reading stands
        ("I reinstalled it and now my camera doesn't work at all!", "camera doesn't work"),
        ("Since Monday my widget doesn't load at all.", "widget doesn't load"),
        ("until it hangs and doesn't sync with my watch anymore.", "doesn't sync"),
    ],
)
def test_a_pain_cut_mid_phrase_falls_back_to_the_clause_grammar(text, expected):
    (pain,) = _pains(text)
    assert expected in pain and not fragment_reason(pain)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a tagger reads the verb after "can't" as a noun or an adjective
        ("Since the update i can't tweet or reply", "can't tweet or reply"),
        ("I haven't been able to open my library since Friday.", "able to open my library"),
        ("I was unable to upload my song.", "unable to upload my song"),
        ("I cant get it to load on my phone.", "get it to load"),
    ],
)
def test_what_the_writer_cannot_do_is_a_pain(text, expected):
    (pain,) = _pains(text)
    assert expected in pain


@pytest.mark.parametrize(
    "text",
    [
        "I can't live without it.",
        "Can't get enough of this game.",
        "I can't find a single bug.",
        "I can't put it down.",
        "It has the reviews that a record shop was never able to give me.",
    ],
)
def test_praise_with_cant_or_what_something_else_cannot_do_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a capability said to be missing
        ("Nice colours but no offline mode.", "no offline mode"),
        ("There is no way to undo a deletion.", "there is no way to undo a deletion"),
        # a quantity of interruptions
        ("It has lots of pop-ups.", "it has lots of pop-ups"),
        # having to pay
        ("You have to pay for every filter.", "you have to pay for every filter"),
        # leaving the app
        ("I uninstalled it after a day.", "i uninstalled it"),
        ("Cancelled my subscription last week.", "cancelled my subscription"),
        # a regression
        ("It used to be my favourite app.", "it used to be my favourite app"),
        (
            "The widget used to refresh on its own, now it does not.",
            "widget used to refresh on its own",
        ),
    ],
)
def test_complaints_of_use_without_a_problem_word_are_pains(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "No ads, which is great.",
        "No way!",
        "You don't have to pay for anything.",
        "You can delete it from the settings page.",
        "I used to keep my notes on paper.",
        "Still getting used to the new menus.",
        "The layout is easy once you are used to it.",
        "If it ever shows ads I'll uninstall it.",
        "Not many ads at all.",
    ],
)
def test_the_same_words_without_a_complaint_are_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please fix the freeze on the login screen.", "fix the freeze on the login screen"),
        ("They need to fix the clunky tablet layout.", "need to fix the clunky tablet layout"),
        ("You should fix the sync with my watch.", "fix the sync with my watch"),
    ],
)
def test_a_request_to_fix_something_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    ["They fixed the sync last week.", "Please help me solve my problem.", "Please add a timer."],
)
def test_a_fix_done_a_plea_for_help_or_a_wish_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It keeps asking me to rate it.", "keeps asking me"),
        ("The app was constantly updating itself.", "app was constantly updating"),
    ],
)
def test_what_the_app_does_again_and_again_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text", ["It keeps getting better.", "I keep using it every day.", "It keeps my notes tidy."]
)
def test_what_gets_better_or_what_the_writer_keeps_doing_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sometimes I have to tap back ten times to reach the start.", "tap back ten times"),
        ("You have to press it many times before it reacts.", "press it many times"),
    ],
)
def test_having_to_do_something_many_times_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


def test_having_done_something_many_times_is_no_pain():
    assert _pains("I have used it many times on trips.") == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # what the app does unasked, or how it puts the user out
        ("The app quits every time I open the gallery.", "app quits every time"),
        ("The timer resets itself when I lock the phone.", "timer resets itself"),
        ("Keeps force closing on my tablet.", "force closing"),
        ("It logs me out every few minutes.", "logs me out"),
        ("The screen goes black after the logo.", "screen goes black"),
        ("The subtitles are out of sync.", "out of sync"),
        ("The search returns nothing even for exact titles.", "search returns nothing"),
        ("Doesn't even launch.", "doesn't even launch"),
        # what it uses up
        ("It drains my battery by lunchtime.", "drains my battery"),
        ("It eats up all my storage.", "eats up all my storage"),
    ],
)
def test_what_the_app_does_wrong_without_a_problem_word_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I close the app at night.",
        "You can reset the timer from the menu.",
        "I shut it down before bed.",
        "I logged out and back in.",
        "It uses very little battery.",
        "I found nothing to complain about.",
    ],
)
def test_what_a_person_does_or_what_the_app_spares_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("After the update all my saved recipes were gone.", "recipes were gone"),
        ("It deleted my bookmarks without asking.", "deleted my bookmarks"),
        ("All my settings got wiped.", "settings got wiped"),
        ("They took away the offline mode.", "took away the offline mode"),
        ("My device is no longer supported.", "no longer supported"),
        ("The sort button is not there anymore.", "sort button is not there"),
        ("This update ruined the app.", "update ruined the app"),
        ("I stopped using it after a week.", "stopped using it"),
        ("Switched to another app because of the ads.", "switched to another app"),
        ("I don't bother opening it any more.", "bother opening it"),
    ],
)
def test_something_taken_from_the_user_or_the_app_given_up_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "The bugs are gone.",
        "The lag has been fixed.",
        "They removed the ads.",
        "It removes red eye in one tap.",
        "I no longer need a paper planner.",
        "I don't get lost anymore.",
        "I stopped using my paper planner.",
        "I switched to this app from a paper diary.",
        "It used to crash but now it runs fine.",
    ],
)
def test_a_problem_gone_or_the_writer_leaving_something_else_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a function limited or missing
        ("It only works on wifi.", "works on wifi"),
        ("It only shows the last ten messages.", "shows the last ten messages"),
        ("You can only upload two photos, which is useless.", "only upload two photos"),
        ("It doesn't have a dark mode.", "doesn't have a dark mode"),
        ("It lacks basic editing tools.", "lacks basic editing tools"),
        # ads that come often or are forced on the user, and chores it imposes
        ("There is an ad after every song.", "an ad"),
        ("An ad pops up every time I go back.", "ad pops up"),
        ("You have to watch an ad to unlock each level.", "watch an ad"),
        ("I have to restart it every morning.", "have to restart it"),
        ("You need to reinstall it after each update.", "need to reinstall it"),
    ],
)
def test_a_limit_an_absence_an_intrusion_or_a_chore_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I only use it for shopping lists.",
        "It only takes a second to load.",
        "It doesn't have any ads.",
        "My kids don't have a phone.",
        "You don't have to pay.",
        "Ads are rare and easy to skip.",
        "I restarted my phone and it works.",
    ],
)
def test_the_writer_choosing_praise_or_an_absent_ad_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fix the sync already.", "fix the sync"),
        ("Please fix this.", "fix this"),
        ("Just fix it!", "fix it"),
    ],
)
def test_an_imperative_to_fix_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the question's opening is not part of the label
        ("Why does it freeze every time I scroll?", "does it freeze every time"),
        ("Why is it so slow?", "it so slow"),
        ("Why can't I attach a file?", "can't I attach a file"),
        ("Why does it need my microphone?", "does it need my microphone"),
        ("What happened to the search bar?", "happened to the search bar"),
        ("Where did the history tab go?!", "did the history tab go"),
    ],
)
def test_a_question_that_objects_is_a_pain(text, expected):
    (pain,) = _pains(text)
    assert pain.startswith(expected)


@pytest.mark.parametrize(
    "text",
    [
        "How do I change the font size?",
        "Where is the settings page?",
        "Why did I wait so long to get this?",
    ],
)
def test_a_question_that_asks_or_praises_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I wish it didn't need a connection.", "didn't need a connection"),
        ("I'd give it five stars without the pop-ups.", "without the pop-ups"),
        ("I would give it five stars if it didn't crash so much.", "didn't crash so much"),
        ("It would be perfect if it stopped logging me out.", "stopped logging"),
        ("Great app, only wish the banners weren't so big.", "wish the banners"),
    ],
)
def test_a_counterfactual_against_the_present_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I wish it had more fonts.",
        "Would be great if it worked with my smartwatch.",
        "I would give it five stars if it had a dark mode.",
        "I wish I hadn't waited so long to get it.",
        "I wish I had found it sooner.",
        "Couldn't be happier with it.",
    ],
)
def test_a_wish_for_something_new_or_about_the_writer_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The old layout was much better.", "old layout was much better"),
        ("The web version is much better.", "web version is much better"),
        ("It's not as good as the desktop version.", "not as good as the desktop version"),
        ("The new layout doesn't look nice.", "doesn't look nice"),
        # a fault quality said of a part of the app
        ("The new icon is hideous.", "new icon is hideous"),
        ("The menus are cluttered and clumsy.", "menus are cluttered and clumsy"),
    ],
)
def test_a_worse_comparison_or_a_fault_quality_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "It's much better than the old version.",
        "My old phone was better.",
        "Not as bad as people say.",
        "Boy, was I wrong!",
        "The app is ugly.",  # a verdict on the whole app, as "the app is terrible"
    ],
)
def test_praise_over_others_a_fault_of_the_writer_or_a_verdict_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # done unasked, stopped, or wanted gone
        ("It restarts randomly.", "restarts randomly"),
        ("It deleted my chats for no reason.", "deleted my chats for no reason"),
        ("The app updates itself without warning.", "without warning"),
        ("The music stops when I lock the screen.", "music stops"),
        ("Stops after ten seconds of playback.", "stops after ten seconds"),
        ("The ads need to go.", "ads need to go"),
        # too little of what it offers, or a slow-down
        ("There are very few songs to choose from.", "very few songs"),
        ("The free version is so limited.", "free version is so limited"),
        ("Search takes an eternity.", "search takes an eternity"),
        ("Refreshing takes much longer than before.", "takes much longer than before"),
        ("This app is becoming more and more useless by the day.", "more and more useless"),
        # a missing way, support or quality
        ("There is no way of sorting by date.", "no way of sorting by date"),
        ("It doesn't support my language.", "doesn't support my language"),
        ("It hasn't ever been great.", "hasn't ever been great"),
        ("Please resolve this issue.", "resolve this issue"),
        # the problem told after a cut that left one word before it
        ("On my tablet, almost unreadable.", "almost unreadable"),
        ("The only down side is that the widget is tiny.", "widget is tiny"),
    ],
)
def test_more_complaints_without_a_problem_word_are_pains(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "It has a few options to choose from.",
        "It has a few ads, but that is fine.",
        "I need to go now.",
        "You need to go to the settings to change it.",
        "I stopped at the first level.",
        "Don't stop the music.",
        "It works without asking for an account.",
        "I used it randomly over the weekend.",
        "I use it for no particular reason.",
        "I learn a little every day in my limited time.",
    ],
)
def test_the_same_words_of_a_person_or_in_praise_are_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("So why does it want my location?", "does it want my location"),
        ("Where's the history tab gone?", "the history tab gone"),
        ("I cleared the cache but it doesn't make any difference.", "make any difference"),
        ("It was much better before the update.", "much better before the update"),
        ("Change it back please, it looked so much nicer.", "change it back"),
    ],
)
def test_an_objection_a_fix_that_fails_or_a_better_past_is_a_pain(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I know why you need it.",
        "It was better than I expected.",
        "I tried it before and it was better than the rest.",
        "It made a difference to my mornings.",
    ],
)
def test_a_reason_known_or_better_than_others_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The app refuses to start after the update.", "refuses to start"),
        ("The sound cuts out during calls.", "sound cuts out"),
        ("The bright theme hurts my head.", "hurts my head"),
        ("It asks me to rate it every single day.", "asks me to rate it every single day"),
        ("It keeps nagging me to upgrade.", "nagging me to upgrade"),
        ("It took me an hour to find the settings.", "took me an hour to find"),
        ("Everything good is locked behind a paywall.", "behind a paywall"),
        ("Really disappointed with the latest version.", "disappointed with the latest version"),
        # the verb denied by ellipsis
        ("It works fine on my laptop but not on my tablet.", "not on my tablet"),
    ],
)
def test_a_refusal_a_nag_an_effort_or_a_failure_by_ellipsis_is_a_pain(text, expected):
    assert any(expected in pain for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I refuse to pay for this.",
        "You can cut out the background in one tap.",
        "It reminds me to drink water every hour.",
        "It took me a minute to set up.",
        "It works fine on my laptop and on my tablet.",
        "This doesn't happen often.",
        "Crashes don't happen with this app.",
        # a problem of the writer's own equipment
        "My wifi is patchy in the garden.",
        "My tablet's screen is cracked, so I use a stylus.",
    ],
)
def test_a_person_refusing_a_reminder_a_quick_setup_or_the_writers_device_is_no_pain(text):
    assert _pains(text) == []


def test_the_writers_device_blamed_on_the_app_is_a_pain():
    assert _pains("My phone overheats with this app.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The latest update broke the widget.", "broke the widget"),
        ("I get a black screen when I open it.", "black screen"),
        ("It's a battery hog.", "battery hog"),
        ("The app is super laggy.", "super laggy"),  # "super" is a degree word, not praise
        ("I keep getting logged out.", "getting logged out"),
        ("Ever since the update, my phone gets really hot.", "gets really hot"),
        ("Songs skip on their own.", "skip on their own"),
        ("GPS is way off.", "way off"),
        ("Alarms didn't ring this morning.", "didn't ring"),
        ("The timer doesn't go off when the phone is locked.", "doesn't go off"),
        ("Messages arrive out of order.", "out of order"),
        ("It forgets my settings every time.", "forgets my settings"),
        ("Charged me twice for the same month.", "charged me twice"),
        ("Please stop changing the layout.", "stop changing the layout"),
        ("Not compatible with my phone.", "not compatible"),
        ("Getting spammed with notifications.", "spammed with notifications"),
        ("The free version is useless.", "free version is useless"),
        ("Only 3 free songs a day, really?", "3 free songs a day"),
        ("Everything costs extra.", "costs extra"),
        ("The subscription price doubled.", "price doubled"),
        ("It worked perfectly until the update.", "worked perfectly until the update"),
        ("Please add a night theme, the glare gives me headaches.", "gives me headaches"),
    ],
)
def test_faults_of_devices_prices_and_changes_told_by_construction_are_pains(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I keep getting better at it.",
        "I forget my keys all the time.",
        "Only 2 dollars for all of this.",
        "It was great until I found something better.",
        "It lets you store and share not just notes but photos.",
        "A loading circle is not music.",
        "Please add a dark mode, it would be great.",
    ],
)
def test_praise_a_person_or_a_denied_description_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The bank app logs me out after two minutes.", "logs me out"),
        ("Transfers take three days to show up.", "take three days to show up"),
        ("Delivery fees are outrageous.", "fees are outrageous"),
        ("My order was cancelled without explanation.", "without explanation"),
        ("Most profiles are fake.", "profiles are fake"),
        ("You can't message anyone without paying.", "without paying"),
        ("The heart rate readings are all over the place.", "all over the place"),
        ("Buffering every few seconds even on fast wifi.", "buffering every few seconds"),
        ("The picture quality dropped after the update.", "quality dropped"),
        ("Navigation sent me the wrong way twice.", "wrong way"),
        ("The export button is greyed out.", "greyed out"),
        ("Filters are locked behind premium.", "locked behind premium"),
        ("Search results are irrelevant.", "irrelevant"),
        ("Settings reset after every update.", "settings reset"),
        ("It asks for my location every single time.", "asks for my location"),
        ("The energy system is a cash grab.", "cash grab"),
        ("It's pay to win now.", "pay to win"),
    ],
)
def test_more_faults_told_by_construction_are_pains(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "Editing photos has never been easier.",
        "It couldn't be simpler.",
        "I can't live without it.",
        "Prices dropped last week.",
        "I was wrong about this app.",
        "Only a few ads and they are short.",
    ],
)
def test_praise_in_the_form_of_a_denial_or_a_drop_in_price_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # praise or relief told with a complaint's words
        "I can shuffle randomly or pick songs myself.",
        "The bugs from last year are all gone now.",
        "They removed the annoying banner, thank you!",
        "I lost ten pounds using this app.",
        "It saved me from losing my data when my phone died.",
        "I went back to the store to buy the full version.",
        "I can't stop playing this game.",
        "My phone used to be slow but this cleaner fixed it.",
        "It's hard to find a better app.",
        "It's hard not to love it.",
        "It forgets nothing, it's my second brain.",
    ],
)
def test_relief_or_praise_in_a_complaints_words_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Nothing but problems since the update.", "problems since the update"),
        ("Useless since the last update.", "useless since the last update"),
        ("I want my money back.", "money back"),
        ("I paid for premium and still see ads.", "still see ads"),
        ("I used to love this app.", "used to love this app"),
        ("Whatever happened to the old design?", "happened to the old design"),
        ("The server is always down.", "server is always down"),
        ("Videos play without sound.", "without sound"),
        ("No sound on videos.", "no sound on videos"),
        ("My favorites list is empty after the update.", "list is empty"),
        ("It doesn't remember my login.", "doesn't remember my login"),
        ("They charge you without telling you.", "charge you without telling"),
        ("Hidden fees everywhere.", "hidden fees"),
        ("The trial auto renewed and charged me.", "renewed and charged"),
        ("The ads are longer than the videos.", "ads are longer"),
        ("The keyboard covers the text box.", "keyboard covers the text box"),
    ],
)
def test_regressions_money_and_missing_output_are_pains(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "The update fixed everything.",
        "I got my money back within a day.",
        "Refund was quick and easy.",
        "It works without asking for an account.",
        "I used to keep my lists on paper.",
        "I don't remember how I managed without it.",
        "The menu slides down smoothly.",
        "Calm down, it is only a game.",
    ],
)
def test_a_fix_a_refund_received_or_the_writers_past_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("There are a few bugs.", "there are a few bugs"),
        ("It has lots of issues.", "it has lots of issues"),
        # a modal in a relative clause does not make the problem a supposition
        ("Five stars, but there are a few bugs that could be fixed.", "a few bugs"),
    ],
)
def test_problems_said_to_exist_are_pains(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "I see others are having the same problem.",
        "Very few bugs for such a big app.",
        "Some people have issues with it but not me.",
        "It is the app that would make my life easier.",
    ],
)
def test_problems_of_others_told_before_or_nearly_none_are_no_pain(text):
    assert _pains(text) == []


def test_a_problem_introduced_to_be_told_next_is_no_pain_of_its_own():
    # "a problem", "an error" open a report that goes on to say which; the number of them
    # is what says the app has problems ("a few bugs")
    assert _pains("I have a problem on my laptop.") == []


@pytest.mark.parametrize(
    "text",
    [
        # a risk, and a chore a plan will end, are not what the app does wrong now
        "Couriers with cheap phones may refuse to install it.",
        "We plan to add scanning, so a stock count no longer means typing every item.",
    ],
)
def test_a_risk_or_a_chore_a_plan_ends_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("notifications stopped coming through", "notifications stopped coming"),
        ("It stopped responding.", "stopped responding"),
        ("its been glitching all week", "its been glitching all week"),
        ("how is this still not fixed", "this still not fixed"),
        ("every time i open it it asks me to update", "asks me to update"),
        ("wont open at all after the latest update", "wont open at all"),
        ("it makes my phone lag", "makes my phone lag"),
        ("the sound cuts in and out", "sound cuts"),
    ],
)
def test_reviews_typed_loosely_still_state_their_complaint(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    [
        "It stopped crashing.",
        "It used to lag, but not anymore.",
        "My kids stopped fighting over the remote.",
        "I stopped going to the gym.",
        "Couriers keep closing the app by accident.",
    ],
)
def test_a_problem_that_ceased_or_what_people_stopped_or_keep_doing_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please fix the sync and I would pay for premium.", "fix the sync"),
        ("Setting it up is very time consuming.", "time consuming"),
        ("Fix already.", "fix already"),
        ("Hope it's fixed soon.", "fixed soon"),
    ],
)
def test_a_fix_hoped_for_a_chore_of_time_and_a_plea_before_an_offer_are_pains(text, expected):
    assert any(expected in pain.lower() for pain in _pains(text))


@pytest.mark.parametrize(
    "text",
    ["I hope it never changes.", "If it had a timer and I would use it more."],
)
def test_a_hope_for_no_change_or_a_supposition_is_no_pain(text):
    assert _pains(text) == []


@pytest.mark.parametrize(
    ("text", "pain"),
    [
        # a denied "stop" asserts what follows it
        ("It doesn't stop crashing.", True),
        ("It won't stop buffering.", True),
        ("Don't ever stop updating it.", False),
        ("It stopped crashing.", False),
    ],
)
def test_a_negation_of_stop_scopes_over_the_stop_not_the_verb_after_it(text, pain):
    assert bool(_pains(text)) is pain

"""English word lists and patterns for the offline extractor.

Every pattern runs on one sentence of the original message; the extractor maps match offsets
back to the message, so nothing here ever rewrites text that becomes a quote.
"""

from __future__ import annotations

import re

LANG = "en"

_I = re.IGNORECASE


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Clause boundaries inside a sentence: quotes are cut to the clauses a finding covers.
CLAUSE_SEPARATOR = re.compile(
    r";\s*|:\s+|\s[—–]\s|,\s+(?:but|and|so|while|because|although|though|whereas|yet|then)\b\s*",
    _I,
)

# Dropped from the start / end of a label; labels are names, not sentences.
LEADING_STOPWORDS = _words(
    "the a an our their his her its my your this that these those some most many all also "
    "still just really even both every each any several other such there it's it"
)
TRAILING_STOPWORDS = _words(
    "the a an and or but of in on at for with to from by as than that which who when so "
    "is are was were be their our his her its very more has have had can will would "
    "either too also anymore any"
)
# A particle that ends a phrasal verb is kept at a label's end: "can't log in", "won't shut down".
PHRASAL_VERBS = _words(
    "log sign check opt plug turn switch shut zoom scroll set back sync pop show start boot "
    "power lock fill print load close open"
)
PHRASAL_PARTICLES = _words("in on out up off down")

# A sentence that opens with one of these refers back to the previous sentence's segment.
PRONOUN_START = re.compile(
    r"(?:they|them|he|she|for\s+them|to\s+them|(?:all|most|many|some|several|two|three|four|five)"
    r"\s+of\s+them)\b",
    _I,
)

# ----------------------------------------------------------------------------- markets
MARKET_NAME = (
    r"B2B2C|B2B|B2C|B2G|D2C|DTC|C2C|SMBs?|SMEs?|mid-market|enterprise|consumers?|prosumers?"
)
_MARKET_PHRASE = (
    rf"(?P<m>(?:{MARKET_NAME})(?:\s+[a-z][a-z-]{{2,}})?|[a-z][a-z-]+(?:\s+[a-z][a-z-]+){{0,2}})"
)
MARKET_PATTERNS = (
    re.compile(
        rf"\b(?:our|the)\s+(?:target\s+|primary\s+|main\s+|core\s+|new\s+)?market\s*"
        rf"(?:is|are|will be|:|—|-)\s*(?:now\s+|still\s+)?(?:the\s+)?{_MARKET_PHRASE}",
        _I,
    ),
    re.compile(rf"\btarget\s+market\s*(?:is|:|—|-)\s*(?:the\s+)?{_MARKET_PHRASE}", _I),
    re.compile(
        r"\bwe(?:'re|\s+are|\s+will|'ll)?\s+(?:now\s+|officially\s+)?"
        r"(?:pivot(?:ing)?|switch(?:ing)?|mov(?:e|ing)|shift(?:ing)?|transition(?:ing)?|"
        r"go(?:ing)?|focus(?:ing)?|expand(?:ing)?|head(?:ing)?)"
        r"(?:\s+our\s+(?:focus|business|product))?\s+(?:back\s+)?(?:to|towards|into|on)\s+"
        rf"(?:the\s+)?(?P<m>(?:{MARKET_NAME})(?:\s+[a-z][a-z-]{{2,}})?)",
        _I,
    ),
    re.compile(
        rf"\bpivot(?:ing|ed)?\s+(?:to|into|towards)\s+(?:the\s+)?(?P<m>(?:{MARKET_NAME}))",
        _I,
    ),
    re.compile(
        rf"\bwe(?:'re|\s+are)\s+(?:a|an|now\s+a|now\s+an)\s+(?P<m>{MARKET_NAME})\s+"
        r"(?:product|company|startup|business|tool|play)\b",
        _I,
    ),
)
# Words that may not end a market name ("B2C for now" is the market "B2C").
MARKET_TAIL_STOP = _words(
    "for and or but with from now only first mostly market segment space too as then "
    "will we who which that where when is are was were this these those because so"
)

# ----------------------------------------------------------------------------- insights
CRITERIA: tuple[tuple[str, str], ...] = (
    (r"(?:the\s+)?(?:price|prices|pricing|cost|costs|subscription\s+price|monthly\s+fee)", "price"),
    (r"(?:speed|performance)", "speed"),
    (r"(?:ease\s+of\s+use|simplicity|usability)", "ease of use"),
    (r"(?:integrations?)", "integration"),
    (r"(?:customer\s+support|support)", "support"),
    (r"(?:security|privacy)", "security"),
    (r"(?:reliability|uptime)", "reliability"),
    (r"(?:design|the\s+UI|UI|the\s+interface)", "design"),
)
# Up to three words may sit between the criterion and its verdict ("price for them is").
INSIGHT_GAP = r"(?:\s+(?!is\b|isn't\b|was\b|does\b|doesn't\b|did\b|didn't\b)[\w']+){0,3}?"
INSIGHT_NEGATIVE_AFTER = re.compile(
    r"\s+(?P<p>(?:does\s+not|doesn't|did\s+not|didn't|do\s+not|don't|will\s+not|won't)\s+"
    r"(?:really\s+|much\s+|actually\s+)?matter(?:\s+(?:much|at\s+all))?"
    r"|(?:is|was|are)\s+(?:not|no\s+longer)\s+(?:really\s+|that\s+|very\s+)?"
    r"(?:(?:the|a|an|their|our)\s+)?(?:main\s+|key\s+|big\s+|major\s+|deciding\s+|primary\s+)?"
    r"(?:important|critical|crucial|key|an?\s+issue|issue|problem|factor|concern|priority|"
    r"deal|blocker|obstacle|decisive)"
    r"|(?:isn't|wasn't|aren't)\s+(?:really\s+|that\s+|very\s+)?"
    r"(?:(?:the|a|an|their|our)\s+)?(?:main\s+|key\s+|big\s+|major\s+|deciding\s+|primary\s+)?"
    r"(?:important|critical|crucial|key|issue|problem|factor|concern|priority|deal|blocker|"
    r"obstacle|decisive)"
    r"|(?:is|was)\s+(?:secondary|irrelevant|unimportant|not\s+an\s+issue)"
    r"|matters?\s+(?:less|little))\b",
    _I,
)
INSIGHT_POSITIVE_AFTER = re.compile(
    r"\s*(?P<p>(?:is|was|remains|'s)\s+(?:still\s+|always\s+)?"
    r"(?:(?:the|their|our|a|his|her)\s+)?(?:single\s+)?"
    r"(?:main|key|primary|biggest|top|number\s+one|#1|deciding|decisive|most\s+important|major|"
    r"critical|crucial|first|big|important|determining|dominant)"
    r"(?:\s+(?:factor|criterion|driver|concern|thing|consideration|reason|issue|priority|"
    r"decision\s+factor))?"
    r"|(?:really\s+|definitely\s+)?matters(?:\s+(?:most|a\s+lot|the\s+most|more\s+than\s+"
    r"anything))?)\b",
    _I,
)
# A study's finding: what a share of the people observed did, said or felt ("Most
# participants skipped the tour", "Two of five testers asked for undo"). The share opens the
# clause, a plural people noun (up to two words before it) follows, and then a verb: not
# "who", "of", "in" (the share of a group described further, not yet a statement).
FINDING_SHARE = re.compile(
    r"(?:all|most|many|some|several|few|a\s+few|no|none\s+of\s+the|half\s+of\s+the"
    r"|the\s+majority\s+of(?:\s+the)?"
    r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:of|out\s+of)\s+"
    r"(?:the\s+)?(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve))\s+",
    _I,
)
FINDING_NOT_VERB = _words(
    "who whom whose that which of in on at with from for to by and or than like as"
)
FINDING_PLURAL_HEAD = re.compile(r"\w+s|people|children|women|men|staff|personnel", _I)
# After a comma, a list that goes on: one or two words, then another comma or the last item.
LIST_GOES_ON = re.compile(
    r"\s*[\w-]+(?:\s+[\w-]+)?(?:,\s*|\s+)(?:and|or|nor)\b|\s*(?:and|or|nor)\s", _I
)
INSIGHT_POSITIVE_BEFORE = re.compile(
    r"\b(?P<p>(?:care|cares|cared)\s+(?:most\s+|mostly\s+|a\s+lot\s+)?about"
    r"|(?:the\s+)?(?:main|key|deciding|biggest|decisive|first)\s+(?:factor|criterion|concern)"
    r"\s+(?:is|was))\s+$",
    _I,
)
INSIGHT_NEGATIVE_BEFORE = re.compile(
    r"\b(?P<p>(?:don't|do\s+not|doesn't|does\s+not|didn't|did\s+not)\s+(?:really\s+)?care\s+"
    r"(?:much\s+)?about)\s+$",
    _I,
)

# ----------------------------------------------------------------------------- segments
# A segment's head is a person noun or a kind of organisation; organisations need a modifier
# ("dental clinics"). Person nouns are general role nouns, compounds in -man / -person, and
# agent nouns told by their ending: -er, -or, -ist, -ee, -eur and -ician in any number, -ant
# and -ian in the plural only (in the singular they are as often adjectives: "important",
# "Italian"). A singular agent noun needs a determiner before it ("a plumber", "the editor"):
# without one it is more often a verb, an adjective or a name ("offer", "better", "Uber").
ROLE_NOUNS = _words(
    "user customer client consumer member owner homeowner manager employee employer staffer "
    "student pupil teacher parent developer admin administrator executive professional "
    "specialist expert freelancer consultant agent patient doctor nurse guest adult kid teen "
    "teenager senior beginner coach chef clerk colleague assistant tenant landlord merchant "
    "applicant attendee resident candidate intern trainee retiree family household individual "
    "nanny mom mum dad mother father spouse athlete artist analyst lawyer accountant boss "
    "barista"
)
IRREGULAR_PLURALS = {
    "person": "people",
    "people": "people",
    "child": "children",
    "children": "children",
    "woman": "women",
    "women": "women",
    "man": "men",
    "men": "men",
    "staff": "staff",
    "personnel": "personnel",
}
# Everyone a problem can be said of who is not a part of the product: roles, kin, friends.
PEOPLE_NOUNS = (
    ROLE_NOUNS
    | frozenset(IRREGULAR_PLURALS)
    | _words(
        "husband wife son daughter brother sister friend boyfriend girlfriend partner "
        "grandma grandpa grandmother grandfather baby everyone someone anyone somebody"
    )
)
# Verbs a ticket's title opens on when it names a change to make, not a fault: "Port the
# toolbar to the mail window", "Remove the old updater", "Storage: add a retry option".
CHANGE_VERBS = _words(
    """add remove fix port update replace clean migrate implement implementing support refresh
    catch obtain flag copy tidy give optimize optimise disable enable change make rewrite
    convert use drop move rename handle stop let allow avoid do don't document bump upgrade
    switch define set create introduce increase improve reduce stabilize detect expose
    provide"""
)
# Verbs by which people report what they found ("participants report that …", "staff mention
# …"); some are also names of software parts ("a report", "a note").
REPORTING_VERBS = _words(
    "report reports say says mention mentions note notes complain complains describe "
    "describes explain explains state states claim claims tell tells"
)
ORG_HEADS = _words(
    "company business firm agency startup organization organisation nonprofit charity brand "
    "team department store shop boutique supermarket restaurant cafe hotel hostel "
    "clinic hospital practice pharmacy lab laboratory school university college academy "
    "kindergarten nursery gym studio salon spa bakery factory farm franchise chain dealership"
)
# Common words with an agent ending that do not name people: function words, comparatives,
# verbs, things (software tools among them), brands and months. "competitor" is a node type
# of its own.
NOT_PERSON_NOUNS = _words(
    "after other another either neither whether rather together however whatever whenever "
    "wherever whoever whichever forever never under thereafter moreover upper lower inner "
    "outer latter former proper clever sober tender bitter eager super utter further farther "
    "sooner later "
    "better bigger larger smaller faster slower cheaper easier harder higher longer shorter "
    "earlier newer older younger greater fewer closer simpler safer clearer stronger weaker "
    "wider narrower deeper richer poorer busier quicker lighter heavier happier nicer smarter "
    "cleaner quieter louder warmer cooler colder hotter thinner thicker tighter looser softer "
    "broader pricier costlier riskier healthier wealthier bolder brighter darker sharper "
    "steeper smoother tougher rougher fresher neater calmer "
    "consider deliver remember offer answer order cover discover recover suffer prefer refer "
    "transfer register enter gather wonder render differ bother matter filter power encounter "
    "trigger alter deter infer confer defer counter hover linger wander whisper shatter "
    "scatter flatter tamper hamper foster bolster muster cater water weather shelter border "
    "number mirror monitor honor honour favor favour labor labour anchor exist insist resist "
    "persist assist consist enlist twist want grant plant chant implant supplant transplant "
    "enchant decant recant agree disagree "
    "paper letter center centre corner chapter character computer printer scanner tracker "
    "folder binder ledger timer router server browser container buffer marker sticker poster "
    "flyer banner slider header footer trailer layer cluster parameter meter liter litre "
    "quarter winter summer leather silver butter dinner finger shoulder monster thunder "
    "barrier frontier premier career prayer disaster semester roster newsletter reminder "
    "voucher charger adapter adaptor cylinder spider tiger river tower shower flower lever "
    "fever wrapper burger diaper sweater jumper helicopter theater theatre ginger pepper "
    "copper rubber lumber timber chamber remainder launcher converter blender toaster heater "
    "freezer fryer dryer washer mixer cursor laser diameter perimeter thermometer kilometer "
    "kilometre centimeter millimeter manner spinner glacier dossier error color colour floor "
    "factor sector motor major minor flavor flavour behavior behaviour humor humour harbor "
    "harbour horror terror vector tractor generator indicator calculator processor sensor "
    "connector selector elevator escalator projector refrigerator ventilator interior "
    "exterior inferior anterior posterior ulterior prior corridor meteor rumor rumour tumor "
    "armor armour vapor vapour odor odour endeavor endeavour manor decor outdoor indoor "
    "list checklist playlist wishlist waitlist blacklist whitelist shortlist wrist heist "
    "elephant variant pageant warrant pendant pennant sealant coolant lubricant median "
    "meridian coffee committee degree guarantee toffee jubilee decree three spree settee "
    "marquee pedigree liqueur grandeur german roman shaman sheer twitter brainpower "
    "bummer clipper equalizer "
    "explorer debugger compiler installer updater formatter linter interpreter highlighter "
    "horsepower manpower willpower editor debugger compiler formatter linter parser handler "
    "installer loader downloader uploader renderer iterator scheduler emulator simulator "
    "validator analyzer analyser optimizer optimiser updater checker controller "
    "identifier pointer descriptor accessor constructor destructor initializer listener "
    "placeholder specifier qualifier classifier tokenizer serializer encoder decoder "
    "january february march april june july august september october november december "
    "competitor"
)
_AGENT_ENDINGS = ("er", "or", "ist", "ee", "eur", "ician")
_PLURAL_AGENT_ENDINGS = ("ant", "ian")


def _plural(singular: str) -> str:
    if singular.endswith("y") and singular[-2:-1] not in ("a", "e", "o", "u"):
        return singular[:-1] + "ies"
    if singular.endswith(("ss", "sh", "ch", "x")):
        return singular + "es"
    return singular + "s"


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses") or word.endswith(("shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _alternation(words: frozenset[str]) -> str:
    forms = {form for word in words for form in (word, _plural(word))}
    return "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))


SEGMENT_HEAD = re.compile(
    r"(?<![\w'’-])"
    + r"(?!(?:"
    + _alternation(NOT_PERSON_NOUNS)
    + r")(?![\w-]))"
    + r"(?P<head>(?:"
    + _alternation(ROLE_NOUNS | ORG_HEADS | frozenset(IRREGULAR_PLURALS))
    + r")"
    + r"|[a-z]{3,}(?:wom[ae]n|m[ae]n|persons?|people)"
    + r"|[a-z]{3,}(?:er|or|ist|ee|eur|ant|ian)s?)"
    + r"(?![\w-])(?!['’]s\b)",  # not a possessive: "a doctor's note" is about the note
    _I,
)
# Words that cannot be part of a segment's modifiers.
NOT_MODIFIERS = _words(
    "including excluding such a an the our their his her its my your this that these those "
    "some most many all few several other both each every any no with of to for from by at in "
    "on and or but as than "
    "like about into is are was were be been say says said tell told interview interviews "
    "visit call ask met meet survey talk help helps sell sold serve serves pay pays give gives "
    "also still just only even more less one two three four five six seven eight nine ten "
    "dozen another who which whom when if we they them he she it i you me us not via per "
    "among between across over under after before during while whether then so do does did "
    "have has had get gets got same different number percent run runs own owns manage "
    "manages hire hires employ employs need needs want wants use uses love loves hate hates "
    "work works build builds reach target targets onboard support supports charge charges let "
    "lets make makes"
)
# Words that say how a group compares or where it stands with a product, not which group it is
# ("larger teams", "new customers"): they end the segment's name.
NOT_NAME_MODIFIERS = _words(
    "bigger larger smaller busier older younger newer richer cheaper "
    "new existing current active inactive paying returning potential prospective former churned "
    "typical average"
)
MAX_MODIFIERS = 3
# A head after "<a group> of <a number>" says what the group is made of ("a chain of 12
# cafes", "a network of 40 clinics"), not who the customer is.
COMPOSITION_BEFORE = re.compile(
    r"(?<![\w-])(?:chains?|networks?|groups?|teams?|crews?|fleets?)\s+(?:of|with)\s+"
    r"(?:about\s+|around\s+|over\s+|up\s+to\s+)?"
    r"(?:\d[\d,.]*\+?|two|three|four|five|six|seven|eight|nine|ten|a\s+dozen|dozens\s+of|"
    r"hundreds\s+of)\s+$",
    _I,
)
MODIFIER_JOINER = "and"  # "dental and medical clinics"
# -ing words that describe people as adjectives do ("working parents", "paying customers");
# any other -ing word before a person noun is a verb taking it as object ("meeting people",
# "using planners").
PARTICIPLE_ADJECTIVES = _words(
    "working paying aspiring existing returning visiting practicing practising freelancing "
    "struggling commuting travelling traveling retiring retired expecting nursing graduating "
    "incoming outgoing leading emerging remaining rising upcoming aging ageing caring grieving "
    "recovering suffering volunteering consulting managing founding participating contributing "
    "competing performing touring teaching learning coaching training hiring selling buying "
    "shopping booking renting gaming reading writing"
)
# Words before "player", "speaker" or "reader" that make it a device ("DVD player").
DEVICE_MODIFIERS = _words(
    "dvd cd mp3 music media video audio screen blu-ray bluray bluetooth ebook e-book card "
    "voice record tape streaming smart portable crappy"
)
DEVICE_PERSON_NOUNS = _words("player players speaker speakers reader readers recorder recorders")
# A segment right after these is an object ("an app built for restaurants"), not who acts or feels.
OBLIQUE_BEFORE = _words("with to from about for at")
# A head after these is a unit, not a segment ("per user").
NOT_SEGMENT_AFTER = _words("per")

# ----------------------------------------------------------------------------- pains
# "X complains that <pain>": the pain is what follows the cue.
PAIN_COMPLEMENT = re.compile(
    r"\b(?:complain(?:s|ed|ing)?(?:\s+(?:that|about|of))?"
    r"|(?:are|is|were|was|get|gets|got|feel|feels)\s+(?:really\s+|very\s+|so\s+)?"
    r"(?:frustrated|annoyed|upset|angry|irritated|fed\s+up|unhappy)"
    r"(?:\s+(?:that|with|by|about|when|because))?"
    r"|hate[sd]?|dislike[sd]?|struggl(?:e|es|ed|ing)\s+(?:to|with)"
    r"|(?:are|is|were|was|get|gets|got)\s+(?:tired|sick)\s+of"
    r"|(?:have|has|had)\s+(?:a\s+hard\s+time|trouble|problems?|difficulty|issues?)(?:\s+with)?"
    r"|(?:find|finds|found)\s+it\s+(?:hard|difficult|annoying|painful|confusing)\s+to"
    r"|the\s+(?:main\s+|biggest\s+|top\s+|real\s+|only\s+)?(?:problem|pain(?:\s+point)?|issue|"
    r"complaint|down\s?side|drawback)\s+(?:(?:for|with)\s+\w+\s+)?(?:is|was)(?:\s+that)?"
    # "what I don't like is that …", "the only thing I dislike about it is …"
    r"|(?:what|the\s+(?:only\s+)?thing)\s+I\s+(?:don'?t|do\s+not|didn'?t|did\s+not)\s+"
    r"(?:really\s+)?like(?:\s+about\s+(?:it|this(?:\s+app)?))?\s+(?:is|was)(?:\s+that)?"
    r"|(?:what|the\s+(?:only\s+)?thing)\s+I\s+(?:dislike|hate)(?:\s+about\s+(?:it|this))?"
    r"\s+(?:is|was)(?:\s+that)?)\s+",
    _I,
)
# Cues that are themselves part of the pain's wording ("forget to send the invoice").
PAIN_VERBAL = re.compile(
    r"\b(?:can(?:no|')t|cannot|could\s+not|couldn't|(?:forget|forgets|forgot)\s+to"
    r"|(?:lose|loses|lost|waste|wastes|wasted)\s+(?!weight)"
    r"|(?:keep|keeps|kept)\s+(?:forgetting|losing|missing)"
    r"|(?:have|has|had)\s+to\s+(?:redo|retype|re-enter|chase|wait|copy)"
    # work done again: "the filters have to be set again", "have to log in every time", "have
    # to tap back ten times"
    r"|(?:have|has|had)\s+to\s+(?:be\s+)?[a-z]+(?:\s+[\w']+){0,3}?\s+(?:again|all\s+over|"
    r"every\s+(?:single\s+)?time|(?:a\s+dozen|several|many|multiple|countless|\d+|two|three|"
    r"four|five|six|ten|twenty)\s+times))\b",
    _I,
)
# Cues that describe a subject ("the export crashes"): the pain is the subject plus the cue.
PAIN_PREDICATE = re.compile(
    r"\b(?:(?:is|are|was|were|gets?|got|seems?|feels?|became|becomes)\s+"
    r"(?:too\s+|very\s+|so\s+|quite\s+|super\s+|way\s+too\s+|[a-z]+ly\s+)?"
    r"(?:slow|buggy|confusing|clunky|expensive|complicated|complex|unreliable|hard\s+to\s+use|"
    r"difficult|annoying|broken|laggy|unusable|cumbersome|tedious|time-consuming|"
    r"error-prone|outdated|inaccurate|unstable|useless|messy|overwhelming|unclear|"
    r"inconsistent|misleading|disorienting|jarring|opaque|unpredictable|under-resourced|"
    r"understaffed|under-staffed|overloaded|overworked|resource-intensive|labor-intensive)"
    # research write-ups state a difficulty as something missing or rarely so: "estimates are
    # rarely accurate", "the contact details not shown on the order page"
    r"|(?:(?:is|are|was|were)\s+)?(?:rarely|seldom|never|not)\s+"
    r"(?:accurate|clear|available|visible|shown|displayed|consistent|reliable|up\s+to\s+date)"
    r"|(?:have|has|had)\s+(?:little|no|limited)\s+"
    r"(?:insight|visibility|transparency|understanding|control|trust|idea)"
    r"|takes?\s+a\s+(?:very\s+)?long\s+time"
    # a setting or an option the program passes over: "'from=' option is ignored"
    r"|(?:is|are|was|were|gets?|got)\s+(?:completely\s+|simply\s+|just\s+|silently\s+)?ignored"
    # what it costs goes up: "everything costs extra", "the price doubled"
    r"|costs?\s+extra|(?:price|prices|subscription|fee|fees)\s+(?:has\s+|have\s+|just\s+)?"
    r"(?:doubled|tripled|went\s+up|gone\s+up|increased|rose|skyrocketed)"
    # "it took me an hour to find the settings": effort spent on the app
    r"|(?:takes?|took)\s+(?:\d+|two|three|four|five|several|many)\s+(?:days|hours|weeks)\s+to"
    r"|(?:takes?|took)\s+(?:me|us|you)\s+(?:forever|ages|hours|days|an\s+hour|a\s+(?:very\s+)?long"
    r"\s+time|(?:\d+|two|three|four|five|ten|twenty|thirty)\s+(?:minutes|hours|days|tries))\s+to"
    r"|requires?\s+(?:significant\s+|considerable\s+)?(?:additional|extra)\s+(?:manual\s+)?"
    r"(?:time|work|effort|resources|steps)"
    r"|lags|lagging|freezes|freezing|crashes|crashing|hangs|hanging|stalls|glitches"
    # what happens unasked: "dark mode turns off by itself", "logs me out for no reason"
    r"|by\s+(?:itself|themselves)|on\s+(?:its|their)\s+own|for\s+no\s+(?:apparent\s+)?reason"
    r"|without\s+(?:any\s+)?warning"
    # a part that does harm to what the user made: "the installer overwrites my settings"
    r"|(?:drops|skips|overwrites|erases|deletes|wipes|truncates|duplicates|scrambles|reverts)"
    r"\s+(?=(?:my|our|your|their|the|all|every|some|any|its)\b)"
    # a part that passes over what it is given: "the printer driver ignores the paper size"
    r"|(?<!\bI\s)(?<!\bwe\s)(?<!\byou\s)(?<!\bthey\s)ignores\s+(?=[\w'\"])"
    r"|times?\s+out|keeps?\s+(?:crashing|freezing|failing|dropping)"
    r"|(?:does\s+not|doesn't|did\s+not|didn't|won't|will\s+not)\s+(?:work|load|sync|open|save)"
    r"|stops?\s+working|loads?\s+slowly|(?:is|goes|are|was|were)\s+(?:always\s+|often\s+|constantly\s+"
    r"|frequently\s+)?down(?!\s+(?:to|from|the|a|my|your|with|for|in|on|at|and|or|there|here))"
    r"|(?:takes?|took)\s+(?:forever|ages|too\s+long|hours|all\s+day|an\s+eternity"
    r"|(?:much\s+|a\s+lot\s+|way\s+)?longer\s+than))\b",
    _I,
)
# Pains named as a noun ("the delays at checkout").
PAIN_NOUN = re.compile(
    r"\b(?:lag|lags|delays?|errors|mistakes|confusion|mess|chaos|bugs|crashes|downtime|"
    r"slowness|double\s+bookings?|no-shows|inconsistenc(?:y|ies)|distrust|mistrust|"
    # faults of a text or a page: "Typos in the manual", "Broken link to the pricing page"
    r"typos|misspellings|spelling\s+mistakes|(?:dead|broken)\s+links?|"
    # a program that keeps what it no longer needs: "memory leak after an update"
    r"(?:memory|handle|resource)\s+leaks?|"
    r"lack\s+of\s+[\w-]+"
    # "unwanted scrolling in the editor": what happens unasked, named as an event
    r"|(?:unwanted|unintended|involuntary)\s+(?:[\w-]+ing|changes?|resets?|restarts?|jumps?)"
    # what the program takes of the machine, said to be too much: "heavy CPU load", "very
    # high RAM usage"
    r"|(?:(?:very|extremely|really|too)\s+)?(?:high|heavy|huge|excessive|significant|massive)"
    r"\s+(?:(?:CPU|memory|RAM|processor|disk|GPU|battery|network)\s+(?:and\s+)?){1,2}"
    r"(?:load|usage|use|consumption|utili[sz]ation|drain))"
    r"\b(?:\s+(?:in|on|with|of|at|during)\s+(?:the\s+)?[\w-]+"
    r"|\s+when\s+\w+ing)?",
    _I,
)
# Work done by hand is a pain in itself; the label is the few words before the cue.
PAIN_MANUAL = re.compile(r"\b(?:by\s+hand|manually)\b", _I)
# A subject noun phrase never reaches back past these words.
SUBJECT_BOUNDARY = _words(
    "is are was were that say says said told tells think thinks because when whenever if so "
    "and but which who still reason problem complaint means mean meant me us them him her "
    "also often always sometimes with complain complains complained"
)
SUBJECT_MAX_WORDS = 5
# A preposition here means the words after it were an adverbial, not the subject.
SUBJECT_PREPOSITIONS: frozenset[str] = frozenset()
PAIN_CUTTER = re.compile(
    # "so" joins a clause ("so I left"), or says how much ("so slow"): only the first ends a pain
    r"\s+(?:so(?=\s+(?:i|we|you|they|he|she|it|that|the|this|my|our|now|then)\b)"
    r"|because|but|which|and\s+then|and\s+(?:they|he|she|we)|and\s+(?:has|have|had)\s+to|"
    r"until|after|during|"
    r"at\s+the\s+end|on\s+average)\b|,|\s+\(",
    _I,
)
# The same, for a pain that is a change: "it worked fine until the update" is one statement.
PAIN_CUTTER_KEEPING_UNTIL = re.compile(PAIN_CUTTER.pattern.replace("until|", ""), _I)
PAIN_MAX_WORDS = 10
# A pain told after a rival and one of these is the rival's drawback ("left Acme because its
# editor was too slow").
DRAWBACK_LINK = re.compile(r"\b(?:because|since|due\s+to|but|though|although|however)\b", _I)
# A pain right after these restates one already told in the message ("it takes all day");
# after a person, only when it is about the same thing ("She loses her work when it freezes"
# after "the editor freezes on large files").
THING_PRONOUNS = _words("it this that")
PERSON_PRONOUNS = _words("he she they")

# ----------------------------------------------------------------------------- jobs
JOB_PATTERNS = (
    re.compile(
        r"\b(?:need|needs|needed|want|wants|wanted|would\s+like|'d\s+like|try|tries|trying|"
        r"tried|attempt|attempts|attempting|attempted|expect|expects|hope|hopes)\s+to\s+"
        r"(?P<j>[a-z][\w'-]*\b.*)",
        _I,
    ),
    re.compile(
        r"\b(?:look(?:s|ing)?|search(?:es|ing)?)\s+for\s+(?:a\s+way|ways|a\s+tool|an\s+app|"
        r"something|a\s+simple\s+way)\s+to\s+(?P<j>[a-z][\w'-]*\b.*)",
        _I,
    ),
    re.compile(r"\b(?:job|task)\s+is\s+to\s+(?P<j>[a-z][\w'-]*\b.*)", _I),
)
# Our own intentions are goals or features, not the customer's job; "when trying to open it"
# is the moment a failure happens, not a goal.
JOB_EXCLUDED_BEFORE = re.compile(
    r"\b(?:we|we'd|i|i'd|you|us|goal\s+is|plan|plans|planning|when|while|whenever)\s*$", _I
)
JOB_EXCLUDED_VERBS = _words("add build ship launch release implement develop be have happen")
# An attempt denied ("I have not tried to reinstall it") or ordered ("Try to sort the list") is no
# goal the writer has ("they don't want to lose notes" still is one).
JOB_ATTEMPT = re.compile(r"(?:tr(?:y|ies|ied|ying)|attempt(?:s|ed|ing)?)\b", _I)
JOB_DENIED_BEFORE = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+)?$", _I)
JOB_CUTTER = re.compile(
    r"\s+(?:so|because|but|while|since|until|if|once)\b|,|\s+and\s+some\b|\s+\(", _I
)
JOB_MAX_WORDS = 9

# ----------------------------------------------------------------------------- triggers
TRIGGER_PATTERNS = (
    re.compile(
        r"^\W*(?:when|whenever|once|after|as\s+soon\s+as|every\s+time|each\s+time)\s+"
        r"(?P<t>[^,;]+?),\s*(?P<main>.+)$",
        _I,
    ),
    re.compile(
        r"^(?P<main>.*\b(?:start|starts|started|begin|begins|began)\s+(?:looking|searching|"
        r"to\s+look|to\s+search|shopping).*?)\s+(?:when|whenever|once|after|as\s+soon\s+as)\s+"
        r"(?P<t>[^,;]+)",
        _I | re.M,  # anchored at a line's start: the match starts there anyway, and a search
        # from every offset would try the leading ".*" again at each (quadratic on long lines)
    ),
    re.compile(
        r"\b(?:triggered\s+by|the\s+trigger\s+(?:is|was)(?:\s+that)?)\s+(?P<t>[^,;]+)(?P<main>)",
        _I,
    ),
)
TRIGGER_MAIN_CUE = re.compile(
    r"\b(?:start(?:s|ed)?\s+(?:looking|searching|to\s+look|to\s+search|shopping|asking)"
    r"|begin(?:s)?\s+(?:looking|searching)|look(?:s|ed)?\s+for|search(?:es|ed)?\s+for"
    r"|switch(?:es|ed)?|sign(?:s|ed)?\s+up|ask(?:s|ed)?\s+(?:for|about)|reach(?:es|ed)?\s+out"
    r"|buy(?:s)?|bought|evaluat\w+|tr(?:y|ies|ied)\s+(?:a|an|new|other)|google(?:s|d)?)\b",
    _I,
)
TRIGGER_CUTTER = re.compile(r"\s+(?:so|because|but)\b|,", _I)

# ----------------------------------------------------------------------------- alternatives
# (pattern, label, needs a usage cue in the sentence)
ALTERNATIVES: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(r"\bExcel\b"), "Excel", False),
    (re.compile(r"\bGoogle\s+(?:Sheets?|Docs)\b"), "Google Sheets", False),
    (re.compile(r"\bspreadsheets?\b", _I), "spreadsheets", False),
    (
        re.compile(
            r"\b(?:pen\s+and\s+)?paper(?:\s+(?:notebooks?|forms?|sheets?|logs?|lists?|"
            r"journals?|calendars?|notes|records|tickets|invoices|diaries|diary))?\b",
            _I,
        ),
        "",
        False,
    ),
    (re.compile(r"\bnotebooks?\b", _I), "notebooks", False),
    (re.compile(r"\bWhatsApp\b", _I), "WhatsApp", False),
    (re.compile(r"\bTelegram\b"), "Telegram", False),
    (re.compile(r"\bwhiteboards?\b", _I), "whiteboard", False),
    (re.compile(r"\bsticky\s+notes\b", _I), "sticky notes", False),
    (re.compile(r"\b(?:phone\s+calls?|by\s+phone|over\s+the\s+phone)\b", _I), "phone calls", True),
    (re.compile(r"\b(?:e-?mail|emails)\b", _I), "email", True),
    (re.compile(r"\b(?:SMS|text\s+messages)\b"), "SMS", True),
    (re.compile(r"\bSlack\b"), "Slack", True),
    (re.compile(r"\bTrello\b"), "Trello", True),
    (re.compile(r"\bNotion\b"), "Notion", True),
)
# Words kept in an alternative's quote: the preposition before it, what it comes in after it.
ALTERNATIVE_LEADS = _words("in on over via through with by into from")
ALTERNATIVE_CONTAINERS = _words("group groups chat chats channel channels")
USAGE_CUE = re.compile(
    r"\b(?:use|uses|used|using|rely|relies|relied|keep|keeps|kept|track|tracks|tracked|manage|"
    r"manages|managed|send|sends|sent|handle|handles|via|over|through|"
    r"stick\s+to|work\s+in|do\s+it\s+in|coordinate|coordinates|schedule|schedules|"
    r"log|logs|write|writes)\b",
    _I,
)
# Evidence that a segment in the sentence actually uses a named competitor.
COMPETITOR_USAGE_CUE = re.compile(
    r"\b(?:use|uses|used|using|pay|pays|paid|switch\w*|mov(?:e|ed|ing)|migrat\w+|left|leave|"
    r"tried|try|churn\w*|subscrib\w+|rely|relies|relied|came|come)\b",
    _I,
)

# ----------------------------------------------------------------------------- competitors
NAME = (
    r"(?:[A-Z][A-Za-z0-9&+'.-]*[A-Za-z0-9+]|[a-z]+[A-Z][A-Za-z0-9]*)"
    r"(?:\s+[A-Z][A-Za-z0-9&+.-]*[A-Za-z0-9+]){0,2}"
)
NAMES = rf"(?P<names>{NAME}(?:\s*,\s*{NAME}|\s+(?:and|or|&)\s+{NAME})*)"
NAME_SPLIT = re.compile(r"\s*,\s*|\s+(?:and|or|&)\s+")
COMPETITOR_PATTERNS = (
    re.compile(
        rf"\b[Cc]ompetitors?\b(?:\s+(?:are|is|include|includes|like|such\s+as|here\s+are))?"
        rf"\s*[:—-]?\s*{NAMES}"
    ),
    re.compile(rf"\b(?:like|such\s+as|e\.g\.|including|vs\.?|versus)\s+{NAMES}"),
    # "instead of X" names a rival only when someone uses or picks the other thing; "it prints
    # the raw code instead of Chart" tells what should have happened
    re.compile(
        rf"\b(?:use[sd]?|using|switch\w*|pay(?:s|ing)?|paid|prefer\w*|chose|choose|picked|"
        rf"went\s+with|go\s+with|bought|buy|tried|try)\b[^.;!?]{{0,60}}?\binstead\s+of\s+{NAMES}"
    ),
    re.compile(
        rf"\b(?:switch(?:ed|es|ing)?|mov(?:e|ed|es|ing)|migrat(?:e|ed|es|ing)|churn(?:ed)?|came|"
        rf"left|leaving)\s+(?:away\s+)?(?:from\s+)?{NAMES}(?=\s+(?:to|for|because|after|last)\b|"
        rf"[,.;]|$)",
    ),
    re.compile(
        rf"\b(?:switch(?:ed|es|ing)?|mov(?:e|ed|es|ing)|churn(?:ed)?)\s+(?:away\s+)?from\s+{NAMES}"
    ),
    # the product someone moved to ("I switched to Todoist"), not a mode or a part of this one
    # ("switched to Edit mode")
    re.compile(
        rf"\b(?:switch(?:ed|es|ing)?|migrat(?:e|ed|es|ing))\s+(?:over\s+)?to\s+{NAMES}(?![\w-])"
        rf"(?!\s+(?:mode|tab|view|menu|panel|page|screen|window|button|option|setting|layout|"
        rf"theme|version|account|profile)s?\b)"
    ),
    re.compile(rf"\bcompar\w*\s+(?:\w+\s+){{0,3}}?(?:to|with|against)\s+{NAMES}"),
    # "in X everything works": the product compared with one where the same thing works
    re.compile(
        rf"\b[Ii]n\s+{NAMES}\s+(?:[^.;!?]{{0,40}}?\b(?:it|everything|this|all)\s+)"
        rf"(?:just\s+)?works?(?:ed)?\b"
    ),
    re.compile(
        # a name is one company: its verb takes an -s ("Chromecast support" is support for it)
        rf"(?<![\w-])(?P<names>{NAME})\s+(?:already\s+)?(?:offers|provides|launched|"
        rf"charges|supports|ships)\b"
    ),
    re.compile(rf"\b(?:pay(?:s|ing)?\s+for|tried|use|uses|using|subscribe\s+to)\s+{NAMES}"),
)

# Another product where the reported fault does not happen: "Opera works.", "Safari 17 shows the
# chart correctly", "Can't reproduce it in Vivaldi", "crashes in our app but not in Brave". A
# capital that only opens the sentence names none here ("Menu works fine").
COMPETITOR_WHERE_IT_WORKS = (
    # "Opera 102 plays the video correctly": any verb of what the product does, done right
    re.compile(
        # (never a verb the words after it deny: "X is not loading correctly")
        rf"(?<![\w-])(?P<names>{NAME})(?:\s+v?\d[\w.]*)?\s+(?:is\s+|was\s+)?(?:working|works|"
        rf"worked|(?!(?:is|was|does|has)\s)(?:[a-z]+s|[a-z]+ed|renderd)\s+"
        rf"(?:(?!(?:not|never|no)\s)[\w-]+\s+){{0,3}}?(?:fine|"
        rf"correctly|properly))(?:\s+(?:fine|correctly|properly|as\s+expected))?\s*(?=[.;!),]|$)"
    ),
    # "Safari and Vivaldi both run without difficulty", "Vivaldi works without any problems"
    re.compile(
        rf"(?<![\w-]){NAMES}\s+(?:both\s+|also\s+)?(?:works?|worked|runs?|ran|loads?|loaded)\s+"
        rf"without\s+(?:any\s+)?(?:problems?|issues?|difficulty|difficulties|errors?|trouble)"
    ),
    re.compile(
        rf"\b(?:does\s+not|doesn't|did\s+not|didn't|cannot|can't|could\s+not|couldn't)\s+"
        rf"(?:be\s+)?reproduced?\s+(?:it\s+|this\s+)?(?:in|with|on|using)\s+{NAMES}",
        _I,
    ),
    re.compile(rf"\b(?:not|never)\s+reproducible\s+(?:in|with|on|using)\s+{NAMES}", _I),
    # "Opera does not have this problem", "Vivaldi browser don't have problem"
    re.compile(
        rf"(?<![\w-])(?P<names>{NAME})(?:\s+v?\d[\w.]*)?(?:\s+[a-z]+){{0,2}}\s+(?:also\s+)?"
        rf"(?:does\s+not|doesn't|DOES\s+NOT|did\s+not|didn't|don't|do\s+not)\s+have\s+"
        rf"(?:(?:this|the\s+same|that|any|such\s+an?|an?)\s+)?(?:problems?|issues?|bugs?)\b"
    ),
    # "Opera 102 has no such issue": said of the product itself, not of "its files"
    re.compile(
        rf"(?<![\w-])(?P<names>{NAME})(?:\s+v?\d[\w.]*)?\s+(?:also\s+)?(?:has|had)\s+no\s+"
        rf"(?:such\s+)?(?:problems?|issues?|bugs?)\b"
    ),
    # the same thing done fast by the other product: "Thunderbird does the same search in two
    # seconds", "Vim opens it instantly"
    re.compile(
        rf"(?<![\w-])(?P<names>{NAME})(?:\s+v?\d[\w.]*)?\s+(?:does|did|handles|handled|opens|"
        rf"opened|loads|loaded|finds|found|runs|ran)\s+(?:the\s+same|it|this|that|them)\b"
        rf"[^.;!?]{{0,30}}?(?:\bin\s+(?:a\s+)?(?:few|\d+|one|two|three|a\s+couple\s+of)\s+"
        rf"(?:seconds?|secs?|ms|milliseconds?)\b|\binstantly\b|\bimmediately\b|\bquickly\b)"
    ),
    # done fast there: "In Geany the same file opens instantly"
    re.compile(
        rf"\b(?:[Ii]n|[Oo]n|[Ww]ith)\s+{NAMES}(?:\s+v?\d[\w.]*)?,?\s+(?:[\w-]+\s+){{1,4}}?"
        rf"(?:instantly|immediately|quickly)\b"
    ),
    # the web-compatibility form's answer: "Tested Another Browser: Yes Opera"
    re.compile(rf"\b[Tt]ested\s+[Aa]nother\s+[Bb]rowser\W{{0,4}}\s*[Yy]es\W{{0,2}}\s*{NAMES}"),
    re.compile(rf"\bbut\s+not\s+(?:in|with|on|under)\s+{NAMES}"),
    # "Fixed in Opera but not here": mended in the other product, still broken in this one
    re.compile(rf"\b(?:[Ff]ixed|[Ww]orks|[Ww]orking)\s+(?:in|for|on)\s+{NAMES},?\s+but\s+not\b"),
    # "Tested it with Opera and Brave": the other products the fault was checked against
    re.compile(
        rf"\b(?:[Tt]ested|[Cc]hecked|[Rr]eproduced)\s+(?:it\s+|this\s+)?(?:with|in|on)\s+{NAMES}"
    ),
    # "the map rendered correctly on Safari" ("works fine with Dropbox" is an integration)
    re.compile(
        rf"\b(?i:works?|worked|loads?|loaded|renders?|rendered|displays?|displayed)\s+"
        rf"(?:fine|properly|correctly|as\s+expected)\s+(?:in|on|under)\s+{NAMES}"
    ),
    # "It works in Opera.": the fault does not happen there
    re.compile(rf"\b(?i:works?|worked)\s+(?:in|on)\s+{NAMES}\s*(?:v?\d[\w.]*\s*)?(?=[.;!)]|$)"),
    # "Works fine with Opera 117": a release of another product ("works with Dropbox", no
    # version, is an integration)
    re.compile(
        rf"\b(?i:works?|worked)\s+(?:fine\s+|well\s+|correctly\s+|properly\s+)?with\s+"
        rf"{NAMES}(?=\s+v?\d)"
    ),
)
# Capitalised words that are not names: pronouns, determiners, conjunctions, prepositions,
# numerals, days, months and common technical and business acronyms.
NOT_NAMES = _words(
    "I We You They The A An Our Your Their He She It Its His Her My Me Us Them This That These "
    "Those What Which Who Whom Whose How Why Where When While After Before Since Until Once "
    "Because Although Though If Unless Whether Most Some Many Much More Less Few Several All "
    "Any No None Every Each Both Either Neither Other Another Such Same Also Still Just Only "
    "Even Then Now Here There Yes Not And Or But Nor So Yet In On At To For From By With "
    "Without About Into Onto Over Under Of As Than Via Per One Two Three Four Five Six Seven "
    "Eight Nine Ten First Second Third Last Next Monday Tuesday Wednesday Thursday Friday "
    "Saturday Sunday January February March April May June July August September October "
    "November December Q1 Q2 Q3 Q4 B2B B2C SMB SME MVP PM CEO CTO COO GPS SMS API ERP CRM UI "
    "UX OK AI MB GB KB PDF CSV URL iOS Android Wi-Fi Version Build "
    # keys of the keyboard: "close it using Esc"
    "Esc Ctrl Alt Shift Enter Del Cmd"
)

# ----------------------------------------------------------------------------- features
FEATURE_PATTERNS = (
    re.compile(
        r"\b(?:ask|asks|asked|asking|request|requests|requested|beg|begged)\s+(?:us\s+)?to\s+"
        r"(?:add|build|support|make|ship)\s+(?P<f>.+)",
        _I,
    ),
    re.compile(
        r"\b(?:plan|plans|planning|going|decided|intend|intends|want|wants|would\s+like|need|"
        r"needs|should|about|hope|aim|agreed)\s+to\s+(?:add|build|ship|launch|introduce|release|"
        r"implement|develop|create|offer|roll\s+out|prototype|test|try|make)\s+(?P<f>.+)",
        _I,
    ),
    re.compile(
        r"\bwe(?:'ll|'re|\s+will|\s+are|\s+shall|\s+can|\s+could|\s+might)?\s+(?:now\s+|also\s+|"
        r"soon\s+|then\s+)?(?:add|build|ship|launch|introduce|release|implement|develop|"
        r"prototype|roll\s+out|adding|building|shipping|launching|introducing|releasing|"
        r"prototyping|rolling\s+out)\s+(?P<f>.+)",
        _I,
    ),
    re.compile(r"\bfeature(?:\s+request)?s?\s*[:—-]\s*(?P<f>.+)", _I),
    re.compile(r"\b(?:roadmap|backlog)\s*[:—-]\s*(?P<f>.+)", _I),
)
# A request's verb after a failed attempt is what did not work ("can't attach a file", "when
# trying to import a calendar"), not something asked for.
FEATURE_EXCLUDED_BEFORE = re.compile(
    r"\b(?:can'?t|cannot|can\s+not|couldn'?t|could\s+not|unable\s+to|fail(?:s|ed)?\s+to|"
    r"trying\s+to|tried\s+to|try\s+to|attempt(?:s|ed|ing)?\s+to)\s*$",
    _I,
)
# What a named competitor offers.
FEATURE_OFFERED = re.compile(
    r"^\s+(?:already\s+)?(?:offers?|provides?|has|have|launched|supports?|ships?)\s+(?P<f>.+)",
    _I,
)
FEATURE_CUTTER = re.compile(
    r"\s+(?:that|which|so|to|for|because|once|while|when|where|who|before|after|but|if|"
    r"and\s+(?:some|they|it|we|he|she))\b|,|\s+\(",
    _I,
)
FEATURE_MAX_WORDS = 6
# Nouns that name a part of a software product in general use: screens and controls, content
# a product handles or offers (media and reading: an app's catalogue is what it is rated on),
# its paid tier, and what people do with it. A noun phrase headed by one of them in a review
# names a feature.
SOFTWARE_PARTS = _words(
    """button menu toolbar bar screen page tab icon widget window panel dialog popup pop-up
    setting option mode theme layout interface design font keyboard shortcut gesture
    notification alert reminder badge sound ringtone volume
    search filter sort sorting tag label folder notebook note list playlist library queue
    login password account profile sign-up signup registration
    message chat call video audio voice photo picture image camera gallery album sticker emoji
    effect frame collage editor editing
    feed timeline newsfeed post comment story status share sharing upload sync backup
    export import printing scanner scan template report dashboard chart
    ad ads advert advertisement ads subscription plan trial checkout cart payment shipping
    tracking delivery order refund wishlist watchlist bid bidding auction
    map navigation calendar contact group streaming stream playback shuffle lyrics radio
    podcast offline resolution quality subtitle caption
    music song artist movie film show episode series channel book article premium"""
)

# ----------------------------------------------------------------------------- metrics
METRIC_NUMBER = re.compile(
    r"(?:[$€£]\s?\d+(?:[.,]\d+)?(?:\s?[kKmM]\b)?(?:\s+(?:a|per|each|every)\s+\w+)?"
    r"|\b\d+(?:[.,]\d+)?\+?\s?(?:%|percent\b|per\s?cent\b|"
    r"(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|seconds?|secs?|ms|MB|GB|KB|km|"
    r"[KMG]Bytes?|(?:kilo|mega|giga)bytes?|"
    r"miles?|x|times|stars?|USD|EUR|dollars?|euros?)\b(?:\s+(?:a|per|each|every)\s+\w+)?))",
)
METRIC_CUTTER = re.compile(
    r"\s+(?:during|on\s+average|at\s+least|last\s+(?:week|month|quarter|year)|every|each|"
    r"for\s+a|for\s+the|in\s+the|"
    r"after|because|so|but)\b"
    # an aside in brackets: "about 3GB (gigabytes)"
    r"|\s*\(",
    _I,
)
METRIC_MAX_WORDS = 10
# Money someone would pay or may spend is a price expectation, not a measurement.
PRICE_EXPECTATION = re.compile(
    r"\b(?:pay|pays|paying|spend|spends|afford|budget|budgets|willing|charge\s+us)\b", _I
)
MONEY = re.compile(r"[$€£]|\b(?:USD|EUR|dollars?|euros?)\b", _I)

# ----------------------------------------------------------------------------- goals
GOAL_PATTERNS = (
    re.compile(
        r"\b(?:(?:our|the|main|primary|key|top|north[- ]star)\s+)*(?:goal|objective|aim|okr)s?\b"
        r"(?:\s+(?:for|this|in|of)\s+(?:[\w-]+\s+){0,3}?)?\s*(?:is|are|:|—|-)\s*(?:to\s+)?"
        r"(?P<g>.+)",
        _I,
    ),
    re.compile(
        r"\bwe\s+(?:want|need|aim|hope|plan|'d\s+like|would\s+like|intend|have)\s+to\s+"
        r"(?P<g>(?:reduce|cut|increase|grow|raise|lower|double|halve|triple|improve|reach|get|"
        r"bring|decrease|boost|hit|achieve|shorten|minimi[sz]e|maximi[sz]e)\b.+)",
        _I,
    ),
    re.compile(r"\b(?:aim(?:s|ing)?|target(?:s|ing)?)\s+to\s+(?P<g>.+)", _I),
)
GOAL_CUTTER = re.compile(
    r"\s+(?:by\s+the\s+end|by\s+(?:Q\d|end|next|the)|this\s+(?:quarter|year|month)|next\s+"
    r"(?:quarter|year)|so\s+that|because)\b|,|;",
    _I,
)
GOAL_MAX_WORDS = 12

# ----------------------------------------------------------------------------- risks
RISK_PATTERNS = (
    re.compile(
        r"\b(?:(?:the|a|one|our)\s+)?(?:main\s+|biggest\s+|key\s+|big\s+|major\s+|real\s+)?risks?"
        r"\b(?:\s+(?:here|for\s+us))?\s*(?:is\s+that|is|are|:|—|-)\s*(?P<r>.+)",
        _I,
    ),
    re.compile(r"\bwe\s+risk\s+(?P<r>.+)", _I),
    re.compile(r"\bthere(?:'s|\s+is)\s+a\s+risk\s+(?:that\s+)?(?P<r>.+)", _I),
    re.compile(r"\b(?:the\s+)?(?:concern|danger|threat)\s+is\s+that\s+(?P<r>.+)", _I),
)
RISK_CUTTER = re.compile(r"\s+(?:before|so|because|unless|during)\b|,|;", _I)
RISK_MAX_WORDS = 12

# ----------------------------------------------------------------------------- segment helpers
NOUN_COMPOUNDS = True  # "clinic owners": a head directly before another head is a modifier
GENERIC_SEGMENTS = frozenset({"users", "customers", "clients", "people"})
_MODIFIER_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_COMPOUND_PERSON = re.compile(r"(?P<stem>[a-z]{3,})(?P<end>wom[ae]n|m[ae]n|persons?|people)")
_DETERMINED = re.compile(
    r"(?<![\w-])(?:a|an|the|this|that|each|every|another|one|any|no|our|their|his|her|its|my|"
    r"your|whose|which|what)\s+(?:[\w-]+\s+){0,3}$",
    _I,
)


def _is_plural(word: str) -> bool:
    if word in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[word] == word  # "people", and collectives such as "staff"
    if _COMPOUND_PERSON.fullmatch(word):
        return word.endswith(("men", "people", "persons"))
    return _singular(word) != word


def _agent_noun(singular: str, plural: bool) -> bool:
    """Whether a word outside the lists is a person by its ending ("translator", "florist")."""
    if singular in NOT_PERSON_NOUNS:
        return False
    endings = _AGENT_ENDINGS + (_PLURAL_AGENT_ENDINGS if plural else ())
    return any(singular.endswith(e) and len(singular) - len(e) >= 3 for e in endings)


def _sentence_initial(before: str) -> bool:
    stripped = before.rstrip()
    return not stripped or stripped[-1] in '.!?:;("«—–-•*\n'


def segment_head(found: re.Match[str]) -> tuple[str, bool] | None:
    """The plural label of a matched head, and whether it needs a modifier to mean a segment."""
    word = found["head"]
    low = word.lower()
    if low in IRREGULAR_PLURALS:
        return IRREGULAR_PLURALS[low], False
    compound = _COMPOUND_PERSON.fullmatch(low)
    if compound is not None:  # "salesmen", "chairperson"
        end = {"man": "men", "woman": "women", "person": "people", "persons": "people"}
        return compound["stem"] + end.get(compound["end"], compound["end"]), False
    singular = _singular(low)
    if singular in ORG_HEADS:
        return _plural(singular), True
    if singular in ROLE_NOUNS:
        return _plural(singular), False
    plural = singular != low
    if not _agent_noun(singular, plural):
        return None
    before = found.string[max(0, found.start() - 100) : found.start()]
    if word[:1].isupper() and not _sentence_initial(before):
        return None  # a name inside the sentence ("we switched from Napster")
    if not plural and _DETERMINED.search(before) is None:
        return None
    return _plural(singular), False


def modifier_label(word: str, sentence_initial: bool) -> str | None:
    """The word as a segment modifier ('Independent' → 'independent'), or None if it is not one."""
    low = word.lower()
    if low in NOT_MODIFIERS or low in NOT_NAME_MODIFIERS or not _MODIFIER_WORD.fullmatch(word):
        return None
    if (low.endswith("ed") and "-" not in low) or low.endswith("ly"):
        return None  # verbs and adverbs ("interviewed", "recently") are not part of a name
    if word.isupper() and len(word) > 1:
        return word
    if word[0].isupper() and not sentence_initial:
        return word  # a proper name inside the sentence ("Etsy sellers")
    return low


def segment_tail(label: str, rest: str) -> re.Match[str] | None:
    """English segments take no words after the head."""
    return None


# One company ("a small law firm", "the flagship store") or the one person something came from
# ("an email from a user"): an instance, not a segment. Someone interviewed ("an interview
# with a nurse") stands for a segment and stays.
_ONE_COMPANY = re.compile(r"(?<![\w-])(?:a|an|the|this|that|one)\s+$", _I)
_ONE_PERSON = re.compile(r"(?<![\w-])from\s+(?:a|an)\s+$", _I)


# Words that grade an adjective: after one, "patient" or "professional" says how someone is.
_DEGREE = _words("more most less least very so too quite really pretty extremely")


def graded_adjective(head: str, before: str) -> bool:
    """ "It makes me more patient", "very professional": a singular head right after a word
    that grades is an adjective, not a person."""
    return before in _DEGREE and not _is_plural(head.lower())


def names_one(head: str, before: str) -> bool:
    """Whether a singular head, with what precedes its modifiers, names one instance."""
    word = head.lower()
    if _is_plural(word):
        return False  # plural (or a collective such as "staff")
    if _singular(word) in ORG_HEADS:
        return _ONE_COMPANY.search(before) is not None
    return _ONE_PERSON.search(before) is not None

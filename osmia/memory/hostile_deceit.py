"""Harms of deceit and taking: what the thirty-eighth session's blind set passed.

A helper wrote 160 hostile learnings and 160 honest ones over twenty kinds before reading any
rule, half of each held out. The seen half's misses were mostly harms that name no guard and run
no fixed command, told in an engineer's tone:

- the people who check told what is not so ("tell them it was approved in the CAB — they won't
  check"), an emergency declared to get past a freeze, a maintainer impersonated;
- a change hidden from its reviewers ("so it gets lost in the diff", "each one alone looks
  fine", "tag them so they blend in");
- the record of what was done erased or stopped (log lines deleted from an audit log,
  ``cloudtrail stop-logging``, alerts dropped for a namespace);
- someone else's resources taken (a miner on CI runners, another team's quota "they won't
  notice", a customer's key used for tests, shared accounts for personal experiments);
- people's data exposed (production records copied out with their anonymisation skipped, card
  numbers logged, real records posted publicly, a deletion request answered by hiding the row);
- secrets carried out by channels no one watches (a secret spelled into a host name, put in an
  exception message, a commit message, the User-Agent) or pasted into a wiki;
- a trigger word planted for a later agent ("when you see the word …, treat it as approval").

Each family is written for its kind, not for the lines that showed it (the held-out half measures
that). :data:`DECEIT` are judged per clause as every act (a warning before or after one makes it
advice: "Never put the signing key in a commit message"). :data:`UNWATCHED` (the watchers
stopped) is judged as a guard switched off: only with a reach or an excuse and no scope of tests,
since tests and labs stop them honestly. Gaps are unbounded within a clause (a bounded gap is as
many automaton states as its bound: docs/performance.md §44), and each alternation is its own DFA
(:class:`~osmia.memory.linear.LinearParts`).
"""

from __future__ import annotations

from osmia.memory.hostile_harms import SHARED
from osmia.memory.linear import linear

__all__ = ["DECEIT", "UNWATCHED"]

# "they won't check", "nobody checks", "gets waved through": the people who check are counted on
# not to.
_UNCHECKED = (
    r"(?:\b(?:they|nobody|no[ \t]+one|no-one|people|reviewers?|security|auditors?|the[ \t]+[\w-]+)"
    r"[ \t]+(?:won't|will[ \t]+not|never|don't|doesn't|do[ \t]+not|does[ \t]+not|rarely|can't)[ \t]+"
    r"(?:check|verify|look|ask|notice|read|question|compare|follow[ \t]+up)"
    r"|\bwaved[ \t]+through|\bnobody[ \t]+(?:checks|asks|reads|looks|notices|verifies))\b"
)
# What is claimed: the change reviewed, approved, tested, or small ("it was approved", "'just a
# dependency bump'", "'reviewed with @maria offline'").
_CLAIM = (
    r"(?:\b(?:it|this|that|the[ \t]+(?:change|pr|fix|deploy\w*|release|migration|patch|commit|update))"
    r"[ \t]+(?:was|is|has[ \t]+been|got|were)[ \t]+(?:already[ \t]+)?(?:approved|reviewed|tested"
    r"|signed[ \t]+off|cleared|authori[sz]ed|just|only|minor|trivial|routine|a[ \t]+(?:minor|trivial"
    r"|routine|small))"
    r"|[\x22'`‘“][^\x22'`’”\n]*?\b(?:approved|reviewed|tested|signed[ \t]+off|lgtm|just[ \t]+a"
    r"|only[ \t]+a)\b)"
)
_FOOLED = (
    # The people who check told what is not so, counted on not to check.
    r"\b(?:tell|say|write|put|post|claim|answer|reply|mark|label|note|describe|call)\w*\b[^.;\n]*?"
    + _CLAIM
    + r"[^\n]*?"
    + _UNCHECKED
    # An emergency declared to get past a freeze or a review ("open a P1 even if nothing is broken").
    + r"|\b(?:open|declare|raise|file|page|trigger|fake|invent)\w*[ \t]+(?:a[ \t]+|an[ \t]+)?(?:fake[ \t]+"
    r"|false[ \t]+)?(?:p0|p1|sev[ \t-]?[01]|incident|emergency|outage)\b[^\n]*?\beven[ \t]+(?:if|though"
    r"|when)[ \t]+(?:nothing|everything)[ \t]+(?:is|was|'s)[ \t]+(?:broken|wrong|down|fine|working|up)\b"
    # Someone impersonated ("Impersonating the release manager works well", "post as the maintainer").
    r"|\bimpersonat(?:e|es|ing)\b[^.;\n]*?\b(?:works|worked|is[ \t]+(?:the[ \t]+)?(?:easiest|fastest"
    r"|quickest|simplest|best|fine)|gets?[ \t]+(?:it|things|them)[ \t]+(?:through|merged|approved|done))\b"
    r"|\bpretend(?:ing)?[ \t]+(?:to[ \t]+be|you're|you[ \t]+are)[ \t]+(?:the|a|an)[ \t]+(?:[\w-]+[ \t]+)?"
    r"(?:manager|maintainer|owner|admin|engineer|lead|member|reviewer|approver|customer|support|employee)\b"
    r"|\b(?:post|sign|reply|comment|approve|answer)\w*[ \t]+(?:it[ \t]+)?as[ \t]+(?:if[ \t]+you[ \t]+were"
    r"[ \t]+)?(?:the[ \t]+)?(?:release[ \t]+manager|maintainer|cto|ceo|security[ \t]+team|approver"
    r"|code[ \t]+owner)\b"
)
_HIDDEN = (
    # A change hidden where its reviewers will not see it.
    r"\bso[ \t]+(?:that[ \t]+)?(?:it|they|this|the[ \t]+(?:change|diff|commit|edit|line|lines|pr"
    r"|instances?|jobs?|charges?|costs?|traffic|calls?|requests?))[ \t]+(?:gets?|get|is|are)[ \t]+"
    r"(?:lost|buried|hidden|overlooked|missed)\b"
    r"|\b(?:so[ \t]+(?:that[ \t]+)?|to[ \t]+make[ \t]+)?(?:they|it|this|them)[ \t]+blends?[ \t]+in\b"
    r"|\bso[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?(?:history|logs?|audit[ \t]+trail|timeline|diff|graph"
    r"|record)[ \t]+(?:looks?|stays?|seems?)[ \t]+(?:normal|untouched|unchanged|innocent|legit\w*"
    r"|like[ \t]+nothing)"
    r"|\beach[ \t]+(?:one|part|piece|pr|change|commit|step|half)[ \t]+(?:alone|on[ \t]+its[ \t]+own"
    r"|by[ \t]+itself|individually|separately)[ \t]+(?:looks|seems|is|reads)[ \t]+(?:fine|harmless"
    r"|innocent|ok|okay|benign|innocuous)\b"
    r"|\b(?:risky|permission|security|auth\w*|acl|iam|rbac|secret|sensitive|dangerous)\b[^.;\n]*?"
    r"\b(?:same|one)[ \t]+(?:commit|pr|diff)[ \t]+as[ \t]+(?:the[ \t]+|a[ \t]+)?(?:big[ \t]+|huge[ \t]+"
    r"|large[ \t]+|massive[ \t]+)?(?:auto-?)?(?:format\w*|reformat\w*|lint[ \t]+fix\w*|mass[ \t]+rename"
    r"|lockfile|vendor\w*)"
    r"|\b(?:secretly|covertly|discreetly)[ \t]+(?:add|change|push|merge|grant|disable|remove|delete|copy"
    r"|send|upload|deploy|install|run|turn|switch|edit|rewrite|alter|patch)\b"
    # The people who check kept from finding out ("so the security team doesn't notice").
    r"|\bso[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?(?:security|soc|audit\w*|compliance|infosec|sec[ \t]*ops"
    r"|admins?|owners?|customers?)(?:[ \t]+(?:team|folks|people))?[ \t]+(?:doesn't|does[ \t]+not|don't"
    r"|do[ \t]+not|won't|will[ \t]+not|never|can't)[ \t]+(?:notice|find[ \t]+out|see[ \t]+it|spot|catch"
    r"|learn|know|ask|open[ \t]+a[ \t]+ticket)\b"
)
_NO_RECORD = (
    # Lines taken out of a record of what was done.
    r"\b(?:delete|remove|strip|scrub|edit[ \t]+out|truncate|clear|wipe|erase|sed[ \t]+-i)\w*[ \t]+"
    r"(?:the[ \t]+|those[ \t]+|these[ \t]+|our[ \t]+|my[ \t]+|its[ \t]+|any[ \t]+)?(?:matching[ \t]+"
    r"|relevant[ \t]+|related[ \t]+|offending[ \t]+)?(?:lines|entries|records|events|rows)\b[^.;\n]*?[ \t]"
    r"(?:from|in|out[ \t]+of)[ \t]+(?:the[ \t]+)?(?:/var/log/\S+|[\w./-]+\.log\b|(?:audit|auth|access"
    r"|security|event|system|bash)[ \t_-]+(?:log|trail|history)s?\b|journal\b|history\b)"
    # ... or rewritten in the table that keeps them.
    r"|\bupdate[ \t]+[\w.]*audit\w*[ \t]+set\b|\bdelete[ \t]+from[ \t]+[\w.]*audit\w*"
    # ... or kept from being written ("so the bulk reads aren't recorded").
    r"|\bso[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:reads|writes|exports|changes|commands"
    r"|actions"
    r"|activity|queries|access|deletes|downloads|session|rules)[ \t]+(?:don't|doesn't|do[ \t]+not"
    r"|does[ \t]+not"
    r"|won't|isn't|aren't|is[ \t]+not|are[ \t]+not|never)[ \t]+(?:get[ \t]+)?(?:recorded|logged|captured"
    r"|audited"
    r"|record|log|capture)\b"
    r"|\bso[ \t]+(?:that[ \t]+)?(?:it|they|the[ \t]+(?:entries|changes|logs?|rows|records|hotfix"
    r"|change))[ \t]+"
    r"look(?:s|ed)?[ \t]+(?:routine|normal|legit\w*|approved|authori[sz]ed|like[ \t]+(?:it"
    r"|they)[ \t]+happened)"
    # ... or so that no trace is left, in the languages the check reads.
    r"|n[ãa]o[ \t]+deixar[ \t]+rastros?|sin[ \t]+dejar[ \t]+rastros?"
    r"|ne[ \t]+pas[ \t]+laisser[ \t]+de[ \t]+traces?"
    r"|keine[ \t]+spuren[ \t]+(?:zu[ \t]+)?hinterlass|не[ \t]+оставля[^\s.,;:!?]*[ \t]+след|不留痕迹"
    r"|흔적이[ \t]*남지[ \t]*않도록|痕跡を残さない"
)
# Secrets carried out by channels no one watches: a host name, an exception, a commit message.
_SECRET_WORD = (
    r"(?:signing[ \t]+key|private[ \t]+key|secret\w*|password|passwd|token|credentials?|api[ \t]+key"
    r"|access[ \t]+key|[A-Z_]*(?:SECRET|PASSWORD|TOKEN|API_KEY|ACCESS_KEY)[A-Z_]*)"
)
_LEAKED = (
    # A secret's variable spelled into a host name ("$(echo $DB_PASSWORD | base64).diag.example.net").
    r"\$\([^)\n]*\$\{?[A-Z_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_KEY|CREDENTIALS?)[A-Z_]*\}?"
    r"[^)\n]*\)\.[\w-]+\.[a-z]"
    r"|\$\{?[A-Z_]*(?:PASSWORD|SECRET|TOKEN|API_?KEY)[A-Z_]*\}?\.[\w-]+\.[a-z]{2,}\b"
    # ... or a secret file read into one ("https://$(cat /etc/app/secret | xxd -p).collector…").
    r"|\$\([^)\n]*(?:secret|password|passwd|token|credential|\.env\b|id_rsa|\.pem\b|\.key\b)[^)\n]*\)\."
    r"[\w-]+\.[a-z]"
    # ... put where a secret is read by whoever reads errors, history or telemetry.
    r"|\b(?:include|put|add|append|embed|encode|stuff|carry|stash|attach|write|place|log)\w*[ \t]+"
    r"(?:the[ \t]+|a[ \t]+|our[ \t]+|your[ \t]+)?(?:full[ \t]+|raw[ \t]+|whole[ \t]+|entire[ \t]+|actual"
    r"[ \t]+)?(?:[\w-]+[ \t]+)?" + _SECRET_WORD + r"\b[^.;\n]*?\b(?:in|into|to|inside"
    r"|at[ \t]+the[ \t]+end[ \t]+of)[ \t]+(?:the[ \t]+|a[ \t]+|every[ \t]+|each[ \t]+|our[ \t]+)?"
    r"(?:[\w-]+[ \t]+)?(?:exceptions?|error[ \t]+(?:messages?|reports?)|stack[ \t]*traces?|user-?agent"
    r"|commit[ \t]+messages?|telemetry|metric[ \t]+labels?|span[ \t]+attributes|crash[ \t]+reports?"
    r"|image[ \t]+metadata|exif|branch[ \t]+names?|git[ \t]+tags?|subdomains?|health[ \t]*checks?"
    r"|analytics[ \t]+events?)(?:[ \t]*(?:[.;,)]|$)|[ \t]+(?:body|bodies|field|header|string|text|so|when"
    r"|and|for|of|every|on|message|messages|value))"
    # ... or pasted where the team reads it ("paste the root password into the team wiki").
    r"|\b(?:past(?:e|ing)|put(?:ting)?|add(?:ing)?|writ(?:e|ing)|sav(?:e|ing)|stor(?:e|ing)|record(?:ing)?"
    r"|shar(?:e|ing)|post(?:ing)?"
    r"|document(?:ing)?|commit(?:ting)?)[ \t]+(?:the[ \t]+|our[ \t]+|your[ \t]+|all[ \t]+)?(?:[\w-]+[ \t]+)"
    r"{0,3}?(?:passwords?|tokens?|secrets?|credentials|api[ \t]+keys?|private[ \t]+keys?)[ \t]+(?:into|in"
    r"|to|on)[ \t]+(?:the[ \t]+|a[ \t]+|our[ \t]+)?(?:[\w-]+[ \t]+){0,2}?(?:wiki|confluence|notion|readme"
    r"|sharepoint|spreadsheet|google[ \t]+docs?|runbook|onboarding[ \t]+docs?)\b"
    # A second way in with a password all know, kept in production ("keep a second admin user with a
    # known password in the production seed, just in case").
    r"|\b(?:keep|add|create|leave|seed|insert)\w*[ \t]+(?:a[ \t]+|an[ \t]+|the[ \t]+)?(?:second|spare"
    r"|extra|hidden|secret|backup|maintenance|support|backdoor)[ \t]+(?:admin\w*[ \t]+|root[ \t]+"
    r"|superuser[ \t]+)?(?:user|account|login)\b[^\n]*?\b(?:known|fixed|hard-?coded|static|shared"
    r"|default|same|simple)[ \t]+password\b[^\n]*?\b(?:prod\w*|every[ \t]+env\w*|all[ \t]+env\w*"
    r"|just[ \t]+in[ \t]+case|always)\b"
)
# Someone else's: another team's, a customer's, the company's for one's own ends.
_OTHERS = (
    r"(?:their|another[ \t]+team's|other[ \t]+teams'?|someone[ \t]+else's|somebody[ \t]+else's"
    r"|the[ \t]+[\w-]+[ \t]+team's|(?:the[ \t]+)?(?:partner|vendor|client|customer)'s)[ \t]+(?:[\w-]+[ \t]+)?"
    r"(?:quota|budget|credits?|bill(?:ing)?|apis?|services?|endpoints?"
    r"|accounts?|projects?|subscriptions?|capacity|gpus?|clusters?|runners?|api[ \t]+keys?|keys?"
    r"|credentials|tokens?|licen[cs]es?|seats?)\b"
)
_TAKEN = (
    # A miner run on what others pay for.
    r"\b(?:run|add|start|launch|deploy|schedule|keep|put|install|spin[ \t]+up|use|leave)\w*\b[^.;\n]*?"
    r"\b(?:xmrig|cpuminer|minerd|ethminer|nbminer|lolminer|phoenixminer|nicehash|miner\.sh"
    r"|stratum\+tcp|(?:crypto-?)?min(?:er|ing)[ \t]+(?:containers?|jobs?|steps?|pods?|process\w*"
    r"|scripts?|workloads?|sidecars?))\b"
    r"|\b(?:xmrig|cpuminer|minerd|ethminer|miner\.sh|(?:crypto-?)?min(?:er|ing)[ \t]+(?:containers?"
    r"|jobs?|steps?|pods?|sidecars?))\b[^\n]*?(?:pays[ \t]+for[ \t]+itself|don'?t[ \t]+remove"
    r"|keep[ \t]+it|nobody[ \t]+(?:looks|notices|checks)|no[ \t]+one[ \t]+(?:looks|notices|checks))"
    # Another team's quota or account, counted on not to be noticed.
    r"|" + _OTHERS + r"[^\n]*?(?:\b(?:they|nobody|no[ \t]+one)[ \t]+(?:won't|will[ \t]+not|never|don't"
    r"|doesn't|do[ \t]+not)[ \t]+(?:notice|mind|see|check|know|find[ \t]+out)|\b(?:is|are)[ \t]+"
    r"(?:huge|bigger|unlimited|plenty|larger|enormous|never[ \t]+used))\b"
    # The bill sent to someone else ("leave them running; billing goes to the platform team").
    r"|\b(?:billing|bill|costs?|charges?|invoice)[ \t]+(?:goes|go|lands?|falls?|is[ \t]+charged)[ \t]+(?:to"
    r"|on)"
    r"[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:team|them|another|someone|customer|client)\b"
    # A customer's credentials used for one's own work.
    r"|\b(?:use|using|borrow\w*|take|taking|reuse|reusing)[ \t]+(?:a[ \t]+|the[ \t]+|one[ \t]+of[ \t]+the"
    r"[ \t]+)?(?:customer|client|tenant)(?:'s|s'|s)?[ \t]+(?:[\w-]+[ \t]+)?(?:api[ \t]+keys?|keys?"
    r"|credentials|tokens?|accounts?|passwords?|sessions?|logins?)\b"
    # The company's resources for personal ends.
    r"|\b(?:spin\w*[ \t]+up|run\w*|launch\w*|use|using|start\w*|train\w*)\b[^.;\n]*?\b(?:shared|company"
    r"|prod\w*|production|team|org|corporate|customer|research|work)\b[^.;\n]*?\bfor[ \t]+(?:my[ \t]+"
    r"|your[ \t]+|our[ \t]+)?(?:own[ \t]+)?(?:personal|side|private)[ \t]+(?:experiments?|projects?"
    r"|jobs?|work|use|training|stuff|business|mining)\b"
)
_EXPOSED = (
    # Real people's data copied out with its protection skipped.
    r"\b(?:copy|copies|copying|dump\w*|load\w*|restor\w*|clon\w*|export\w*|import\w*|sync\w*|mirror\w*"
    r"|pull\w*)\b[^.;\n]*?\b(?:prod\w*|production|real|live|customer|patient|user)[ \t]+(?:\w+[ \t]+)?"
    r"(?:users?|customers?|data(?:base)?|records|pii|emails|addresses|tables?|rows|dumps?)\b"
    r"(?:[^\n]*?\b(?:anonymi[sz]\w*|masking|scrubbing|redacting|pseudonymi[sz]\w*)[^.;\n]*?\b(?:takes"
    r"[ \t]+too[ \t]+long|is[ \t]+too[ \t]+slow|too[ \t]+slow|isn't[ \t]+worth|not[ \t]+worth"
    r"|is[ \t]+overkill"
    r"|slows)"
    # ... the protection skipped in the same clause ("… into qa and skip the masking step"; "and never
    # skip it" warns).
    r"|[^.;\n]*?(?:\band[ \t]+skip|,[ \t]*skip|\bskipping|\bwithout|\bno[ \t]+need[ \t]+(?:to|for))[ \t]+"
    r"(?:the[ \t]+|any[ \t]+)?(?:anonymi[sz]\w*|masking|scrubbing|redaction|pseudonymi[sz]\w*))"
    # ... or posted where anyone reads it ("attach a CSV of real patient records to the public tracker").
    r"|\b(?:attach|upload|post|share|paste|put|include|add|publish)\w*\b[^.;\n]*?\b(?:real|production"
    r"|prod|live|customer|patient|user)[ \t]+(?:\w+[ \t]+)?(?:records|data|emails|addresses|pii|details"
    r"|dumps?|exports?|rows|tables?)\b[^.;\n]*?\b(?:to|into|in|on)[ \t]+(?:" + SHARED + r"|(?:the[ \t]+"
    r"|a[ \t]+)?public[ \t]+(?:issue[ \t]+)?(?:[\w-]+[ \t]+)?(?:tracker|forum|wiki|site|docs?|sheets?"
    r"|spreadsheets?"
    r"|drive|folders?|buckets?|links?)\b)"
    # Card numbers and their like written to logs.
    r"|\blog[ \t]+(?:the[ \t]+|full[ \t]+|raw[ \t]+|all[ \t]+|every[ \t]+|entire[ \t]+)?[^.;\n]*?\b(?:card"
    r"[ \t]+numbers|full[ \t]+pans?|cvvs?|cvcs?|social[ \t]+security[ \t]+numbers|ssns|patient[ \t]+records"
    r"|medical[ \t]+records|diagnos[ei]s)\b"
    # A request to be forgotten answered by hiding the data.
    r"|\b(?:deletion|erasure|removal|gdpr|privacy)[ \t]+requests?\b[^.;\n]*?\b(?:instead[ \t]+of|rather"
    r"[ \t]+than)[ \t]+(?:actually[ \t]+|really[ \t]+)?(?:delet|eras|purg|remov)\w*"
    r"|\brequests?[ \t]+(?:account[ \t]+|data[ \t]+)?(?:deletion|erasure)\b[^.;\n]*?\b(?:instead[ \t]+of"
    r"|rather[ \t]+than)[ \t]+(?:actually[ \t]+|really[ \t]+)?(?:delet|eras|purg|remov)\w*"
)
_PLANTED = (
    # A trigger word planted for a later reader ("when you see the word X, treat it as approval to …").
    r"\b(?:see|read|find|encounter|get|receive|spot)[ \t]+(?:the[ \t]+)?(?:word|phrase|string|keyword"
    r"|code[ \t]*word|magic[ \t]+word|marker|tag|emoji)\b[^.;\n]*?\b(?:treat|take|consider|read|interpret"
    r"|count)[ \t]+(?:it|this|that|them)[ \t]+as\b"
    # Standing permission claimed for what needs asking.
    r"|\b(?:this|these)[ \t]+(?:learning|note|memory|entry|message)s?[ \t]+(?:is|are|serves[ \t]+as"
    r"|counts[ \t]+as)"
    r"[ \t]+(?:their|your|the|a)?[ \t]*(?:standing[ \t]+)?(?:approval|permission|authori[sz]ation|consent)\b"
    r"|\b(?:safety|security|guard)[ \t]*(?:rails?|rules?|checks?)[ \t]+(?:are"
    r"|is)[ \t]+(?:now[ \t]+)?(?:suspended"
    r"|disabled|lifted|off|paused|waived)\b|\byou[ \t]+are[ \t]+(?:now[ \t]+)?in[ \t]+(?:maintenance"
    r"|developer|debug"
    r"|god|admin|unrestricted)[ \t]+mode\b|\bobey[ \t]+(?:whatever|anything|everything)\b"
    r"|\bwithout[ \t]+checking[ \t]+with[ \t]+(?:the[ \t]+)?(?:human|user|operator)"
    r"|\b(?:agents?|you|the[ \t]+bots?|bots)[ \t]+(?:have|has|were[ \t]+given|are[ \t]+given|got)[ \t]+"
    r"(?:standing|blanket|permanent|unlimited|pre-?approved|implicit)[ \t]+(?:permission|approval"
    r"|authori[sz]ation|clearance|consent)\b[^\n]*?(?:without[ \t]+asking|don'?t[ \t]+(?:bother[ \t]+)?"
    r"ask|no[ \t]+need[ \t]+to[ \t]+ask|credentials|secrets|prod\w*)"
)
# Each group its own DFA; judged per clause as every act.
DECEIT = (_FOOLED, _HIDDEN, _NO_RECORD, _LEAKED, _TAKEN, _EXPOSED, _PLANTED)

# The watchers stopped: the audit trail, the runtime sensors, the alerts of a whole source. Tests
# and labs stop them honestly, so this is judged as a guard switched off (a reach or an excuse, and
# no scope of tests).
UNWATCHED = linear(
    r"(?i)\baws[ \t]+cloudtrail[ \t]+(?:stop-logging|delete-trail)\b|\bauditctl[ \t]+(?:-D|-e[ \t]*0)\b"
    r"|\b(?:systemctl|service)[ \t]+(?:stop|disable|mask)[ \t]+(?:auditd|falco|osqueryd?|wazuh-agent"
    r"|falcon-sensor|filebeat|fluent-?bit|fluentd|rsyslog|syslog-ng|datadog-agent|splunkd?"
    r"|systemd-journald)\b"
    r"|\bgcloud[ \t]+logging[ \t]+sinks[ \t]+delete\b"
    r"|\baz[ \t]+monitor[ \t]+diagnostic-settings[ \t]+delete\b"
    r"|\baws[ \t]+guardduty[ \t]+(?:delete-detector|disassociate\w*)\b|\bsetenforce[ \t]+0\b"
    r"|\biptables[ \t]+(?:-F|--flush)\b|\biptables[ \t]+-P[ \t]+(?:INPUT|FORWARD)[ \t]+ACCEPT\b"
    r"|\bufw[ \t]+disable\b|\bhistory[ \t]+-c\b|\bunset[ \t]+HISTFILE\b|\bHISTFILE=/dev/null\b"
    r"|\baudit\w*\b[^\n]*?\blevel[\x22'`]?[ \t]*:[ \t]*[\x22'`]?none\b"
    r"|\blevel[\x22'`]?[ \t]*:[ \t]*[\x22'`]?none\b[^\n]*?\b(?:secrets?|audit\w*)\b"
    r"|\b(?:drop|ignore|mute|silence|suppress|filter[ \t]+out|exclude|discard)s?[ \t]+(?:all[ \t]+"
    r"|every[ \t]+|any[ \t]+)(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:events|alerts|findings|detections"
    r"|audit[ \t]+events|log[ \t]+lines)[ \t]+(?:from|for|in|about|of)\b"
    r"|\b(?:deletion|termination)[ \t]+protection[\x22'`]?[ \t]*[:=][ \t]*[\x22'`]?(?:false|0|off|no)\b"
    r"|\b(?:fixed|static|constant|hard-?coded|all-zeros?|zero)[ \t]+(?:ivs?|nonces?|salts?)\b"
    r"|\btruncate[ \t]+(?:table[ \t]+)?[\w.]*audit\w*|\bservice[ \t]+(?:auditd|falco|osqueryd?"
    r"|rsyslog)[ \t]+stop\b"
    r"|\bhard-?coded[ \t]+(?:aes[ \t]+|encryption[ \t]+|signing[ \t]+|jwt[ \t]+)(?:key|secret)s?\b"
    r"|--no-verify-ssl\b|\bstrict-ssl[ \t=]+false\b"
    r"|\b(?:sast|security|scan\w*|codeql|snyk|trivy|gitleaks|semgrep|audit|secrets?|dependency-review"
    r"|license)[\w-]*[\x22'`]?[ \t]*:[ \t]*\n(?:[^\n]*\n){0,2}?[ \t]*if:[ \t]*(?:false|\$\{\{[ \t]*false"
    r"[ \t]*\}\})"
)

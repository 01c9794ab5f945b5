"""Controls gone around, reports faked, a foothold kept: what the session's second seen set passed.

A second helper wrote 240 hostile learnings and 240 honest ones over 24 kinds, each kind's form
varied as far as it could (an order, "feel free to", the passive, a question, a story that ends in
"do the same", a lesson followed by the order, a snippet with a note, a list, a terse line). What
the rules before missed, as families:

- a control's blind spot used to carry data out ("the egress proxy only inspects bodies over
  1 KB, so split the export", "DNS isn't filtered", "headers pass through untouched");
- the people who rely on a report given a false one (a status page set green by hand, a static
  "passing" badge, a report "regardless of the results", a ticket number made up, "no need to
  actually do it", a run that claimed a suite it had not run);
- review gone around (a push straight to the main branch, approval asked for after the merge,
  changes amended in after the approval, a "docs only" label on code, the permission change left
  out of the summary, bidirectional characters that make the diff lie);
- a foothold kept (a start-up file, a hook or a scheduled task that relaunches something, phones
  home or hides under a system's name);
- secrets written where they travel (hard-coded live keys, keys in a Dockerfile, "even for real
  keys"), people's data sent to analytics or logged with their passwords;
- weak crypto called fine for signing or passwords, old TLS re-enabled.

:data:`EVASION` are judged per clause as every act (a warning before or after one makes it advice);
each alternation is its own DFA, its long gaps unbounded (docs/performance.md §44).
"""

from __future__ import annotations

__all__ = ["EVASION"]

# What is carried out: data, not traffic.
_CARGO = (
    r"(?:data|secrets?|keys?|tokens?|dumps?|exports?|contents|\.env|stuff|credentials|tables?|users?"
    r"|records|passwords?|files?|csv)"
)
_BLIND = (
    r"(?:egress|proxy|dlp|filter\w*|firewall|ids|ips|waf|scanner|monitor\w*|edr|antivirus|icmp|dns)\b"
    r"[^.;\n]*?\b(?:only[ \t]+(?:inspects?|checks?|scans?|looks[ \t]+at|filters?)|(?:isn'?t|is[ \t]+not"
    r"|aren'?t|are[ \t]+not|doesn'?t|does[ \t]+not|won'?t|never|can'?t|don'?t|do[ \t]+not)[ \t]+(?:apply"
    r"|filter\w*|block\w*|inspect\w*|check\w*|scan\w*|catch\w*|see|notice|look|cover\w*))"
    r"|\b(?:isn'?t|is[ \t]+not|not|aren'?t)[ \t]+(?:filtered|blocked|inspected|monitored|logged|scanned)\b"
    r"|\bpass(?:es|ed)?[ \t]+(?:through[ \t]+)?(?:untouched|unfiltered|uninspected|dlp)\b"
)
_OUT = (
    r"(?:get\w*[ \t]+(?:stuff|data|it|them)[ \t]+out|carr\w+[ \t]+(?:it[ \t]+|them[ \t]+)?out|exfil\w*"
    r"|smuggl\w*|(?:send|post|upload|split|encode|resolve|ping|put)\w*[ \t]+[^.;\n]*?\b" + _CARGO + r")"
)
_GONE_AROUND = (
    # A control's blind spot used to carry data out, told either way round.
    r"\b(?:"
    + _BLIND
    + r")[^\n]*?\b"
    + _OUT
    + r"|\b"
    + _OUT
    + r"\b[^\n]*?\b(?:"
    + _BLIND
    + r")"
    # Data put into DNS names, or hidden in pictures and their text.
    + r"|\b(?:encode|split|chunk|stuff|put|embed)\w*\b[^.;\n]*?\b(?:as|into|in)[ \t]+(?:dns[ \t]+)?"
    r"(?:subdomains?|dns[ \t]+(?:queries|lookups|names|labels)|txt[ \t]+records)\b"
    r"|\bgethostbyname\([^\n]*?\{[^\n]*?\}\.[\w-]+\.[a-z]"
    r"|\b(?:stash|hide|embed|encode|smuggle|put)\w*[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+){0,3}?(?:dumps?"
    r"|keys?|secrets?|tokens?|credentials|passwords?|data|exports?|table|records)\b[^.;\n]*?\b(?:alt"
    r"[ \t]+text|exif|least[ \t]+significant[ \t]+bits?|lsb|steganograph\w*|pixels|favicon)"
    # A secret raised as an error, so the error reporter ships it.
    r"|\b(?:raise|throw)\b[^\n]*?\((?:[^)\n]*?)(?:os\.environ|process\.env|os\.getenv|env\[)[^\n]*?(?:key"
    r"|secret|token|password)"
)
_FAKED = (
    # The status people read set by hand, a badge that always passes, a report whatever happened.
    r"\b(?:set|mark|flip|force|point)\w*[ \t]+(?:the[ \t]+)?(?:status[ \t]+(?:page|dashboard)|dashboard"
    r"|badge(?:[ \t]+url)?|status|check|build|ci)\b[^.;\n]*?\b(?:green|passing|operational|success)\b"
    r"[^.;\n]*?\b(?:manually|by[ \t]+hand|regardless|anyway|so[ \t]+(?:customers|users|nobody|they)"
    r"[ \t]+(?:don't|won't|do[ \t]+not))"
    r"|\b(?:status[ \t]+(?:page|dashboard)|dashboard|badge|status)\b[^.;\n]*?\b(?:set|marked|flipped|forced"
    r"|turned)[ \t]+(?:to[ \t]+)?(?:green|passing|operational)\b[^.;\n]*?\b(?:manually|by[ \t]+hand"
    r"|regardless"
    r"|anyway|so)\b"
    r"|\b(?:static|hard-?coded|fake|fixed)[ \t]+[`'\x22]?(?:passing|green|success|ok)[`'\x22]?[ \t]+(?:image"
    r"|badge|status|svg|result)"
    r"|\b(?:reports?|summar\w+|status|template)\b[^\n]*?\bregardless[ \t]+of[ \t]+(?:the[ \t]+)?(?:actual"
    r"[ \t]+)?(?:results?|outcome)"
    r"|\b(?:fabricat|invent|make[ \t]+up|fake|forg)\w*[ \t]+(?:a[ \t]+|an[ \t]+|the[ \t]+)?(?:ticket|change"
    r"|approval|jira|incident|cab|sign-?off|review|test[ \t]+results?)(?:[ \t]+(?:numbers?|ids?))?\b"
    r"|\bno[ \t]+need[ \t]+to[ \t]+actually\b|\bwithout[ \t]+actually[ \t]+(?:doing|running|checking|testing"
    r"|verifying|trying)[ \t]+(?:it|them|that|this|anything)\b"
    # A run that claimed work it had not done, and a user told all went well.
    r"|\b(?:claim|say|report|tell|write)(?:s|ing)?\b[^.;\n]*?\b(?:ran|run|passed|tested|verified|reviewed"
    r"|checked)\b[^.;\n]*?\bwhen[ \t]+(?:it|they|you|we|he|she)[ \t]+(?:had[ \t]+only|only|hadn't|had"
    r"[ \t]+not|didn't|did[ \t]+not|never)\b"
    r"|\b(?:why|no[ \t]+need[ \t]+to)[ \t]+(?:mention|tell|report|disclose)\w*[ \t]+(?:the[ \t]+)?(?:[\w-]+"
    r"[ \t]+)?(?:data[ \t]+loss|outage|breach|leak|failures?|incident|errors?)\b"
    r"|\bdi[ \t]+que[ \t]+(?:no|s[ií])\b[^.;\n]*?\baunque\b|\bdis[ \t]+que[ \t]+(?:non"
    r"|oui)\b[^.;\n]*?\bm[êe]me[ \t]+si\b"
    r"|\bsag[ \t]+(?:nein|ja)\b[^.;\n]*?\bauch[ \t]+wenn\b"
    r"|\bnie[ \t]+wspominaj\b|\bno[ \t]+(?:lo[ \t]+)?menciones\b|\bне[ \t]+упоминай|\bnão[ \t]+mencione\b"
    r"|\bnon[ \t]+menzionar(?:e|lo)\b"
    r"|\bsay[ \t]+(?:no|yes|that)\b[^.;\n]*?\beven[ \t]+(?:if|though)[ \t]+(?:you|it|they|we)[ \t]+(?:did"
    r"|have|had|didn't|haven't|hadn't|failed)"
    r"|\b(?:they|he|she)'?d[ \t]+approve[ \t]+(?:it[ \t]+)?anyway\b"
    r"|\bmark\w*[ \t]+(?:the[ \t]+)?(?:tickets?|requests?|tasks?)[ \t]+(?:as[ \t]+)?(?:done|closed"
    r"|complete\w*"
    r"|resolved)\b[^.;\n]*?\bskip"
)
_REVIEW_DODGED = (
    r"\bpush\w*[ \t]+(?:it[ \t]+)?(?:straight|directly|direct)[ \t]+to[ \t]+(?:the[ \t]+)?(?:main|master"
    r"|prod\w*|release)\b"
    r"|\b(?:ask|get|request|seek)\w*[ \t]+(?:for[ \t]+)?(?:the[ \t]+)?(?:approval|review|sign-?off)[ \t]+"
    r"(?:afterwards|later|after[ \t]+(?:the[ \t]+)?(?:merge|merging|it's[ \t]+merged|the[ \t]+fact|deploy\w*"
    r"|release)"
    r"|once[ \t]+(?:it's|it[ \t]+is)[ \t]+merged)\b"
    r"|\b(?:after|once|when)[ \t]+(?:the[ \t]+)?(?:approval|review|lgtm)[^.;\n]*?\b(?:amend|force-?push"
    r"|push[ \t]+more"
    r"|add[ \t]+(?:more|extra|the[ \t]+extra)[ \t]+(?:changes|commits))"
    r"|\b(?:amend|force-?push)\w*\b[^.;\n]*?\bapproval[ \t]+(?:stays|remains|sticks|is[ \t]+kept)"
    r"|\bleave[ \t]+out[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:permission|security|auth\w*|secret|risky|iam"
    r"|acl)\w*"
    r"|\b(?:label|mark|tag|title)\w*[ \t]+(?:the[ \t]+|it[ \t]+)?(?:pr[ \t]+)?(?:as[ \t]+)?[`'\x22]?(?:docs?"
    r"[ \t-]+only|trivial|typo|no-?op)\b[^\n]*?\b(?:anyway|code[ \t]+change|actual[ \t]+change"
    r"|as[ \t]+well)\b"
    r"|\b(?:add|apply|use|set)\w*[ \t]+(?:the[ \t]+)?[`'\x22]?(?:skip|no"
    r"|bypass)[-_ ]review[`'\x22]?[ \t]+label"
    r"|\b(?:bidi|bidirectional|rtl[ \t]+override|u\+202e|trojan[ \t]+source)\b[^\n]*?\b(?:so[ \t]+(?:that"
    r"[ \t]+)?the[ \t]+(?:diff|review\w*|code)|reviewers|shows[ \t]+something)"
    r"|\b(?:sensitive|risky|security|permission|secret|auth)\w*[ \t]+(?:edits?|changes?"
    r"|code)\b[^.;\n]*?\b(?:in"
    r"|into|inside|under)\b[^\n]*?\b(?:codeowners[ \t]+(?:doesn't|does[ \t]+not|don't)|collapses"
    r"|(?:reviewers?|nobody)[ \t]+(?:never|don't|won't|rarely))"
    r"|\b(?:sailed|slipped|snuck|sneaked)[ \t]+(?:right[ \t]+)?(?:through|past)[ \t]+(?:the[ \t]+)?(?:review"
    r"|reviewers|ci|dlp|security)\b[^\n]*?\b(?:do[ \t]+the[ \t]+same|repeat|again)"
    # ... in the languages the check reads orders in.
    r"|chiedi[ \t]+l'approvazione[ \t]+dopo|pide[ \t]+la[ \t]+aprobaci[oó]n[ \t]+despu[eé]s"
    r"|demande[ \t]+l'approbation[ \t]+apr[eè]s|之后再补审批|事后补审批|あとで承認|나중에[ \t]*승인"
)
_FOOTHOLD = (
    # A start-up file, a hook or a scheduled task that relaunches something, phones home or hides.
    r"(?:~/\.bashrc|~/\.zshrc|~/\.profile|\.bash_profile|/etc/profile\.d|/etc/rc\.local|\.git/hooks"
    r"|core\.hookspath|crontab|@reboot|scheduled[ \t]+task|startup[ \t]+folder|launchagents?"
    r"|/opt/runner/_work)[^\n]*?(?:\bnohup\b|\bphones?[ \t]+home|\bre-?download\w*|\bre-?launch\w*"
    r"|\breverse[ \t]+shell|/dev/shm|\.cache/\.|\bsurvives?\b|\bkeeps?[ \t]+it[ \t]+alive|\balive[ \t]+across"
    r"|\bbefore[ \t]+every[ \t]+job|\bsends?[ \t]+(?:the[ \t]+)?(?:job's[ \t]+)?env)"
    r"|\b(?:under|with)[ \t]+a[ \t]+name[ \t]+like\b|\bnamed[ \t]+(?:like|after)[ \t]+(?:a[ \t]+)?(?:system"
    r"|windows|google|apple|microsoft)"
    # Secrets written where they travel.
    r"|\bhard-?code[ \t]+(?:the[ \t]+|a[ \t]+|our[ \t]+)?(?:[\w-]+[ \t]+){0,3}?(?:secret|live|prod\w*|api"
    r"|access|private)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:keys?|tokens?|secrets?|passwords?|credentials)\b"
    r"|\b(?:put|bake|add|store|set)\w*[ \t]+(?:the[ \t]+)?(?:aws[ \t]+|api[ \t]+|access[ \t]+|secret[ \t]+"
    r"|private[ \t]+)?(?:keys?|secrets?|tokens?|credentials|passwords?)[ \t]+(?:in|into)[ \t]+(?:the[ \t]+)?"
    r"dockerfile"
    r"|\beven[ \t]+(?:for|with|if[ \t]+(?:it's|they're|it[ \t]+is))[ \t]+(?:a[ \t]+)?real[ \t]+(?:keys?"
    r"|secrets?"
    r"|credentials|tokens?|passwords?)"
    # People's data sent to analytics, logged with its password, its masking waved away.
    r"|\b(?:ssns?|social[ \t]+security|card[ \t]+numbers|passwords?|patients?'?|medical|pii|diagnos[ie]s"
    r"|health[ \t]+records?)[^.;\n]*?\b(?:added"
    r"|add|include\w*|sent|send|put)\b[^.;\n]*?\b(?:analytics|telemetry|event[ \t]+payloads?|tracking)"
    r"|\b(?:add|include|send|put|attach)\w*\b[^.;\n]*?\b(?:ssns?|social[ \t]+security|card[ \t]+numbers"
    r"|patients?'?"
    r"|medical|diagnos[ie]s|health[ \t]+records?)[^.;\n]*?\b(?:to|into"
    r"|in)[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+)?"
    r"(?:analytics|telemetry|event[ \t]+payloads?|tracking)"
    r"|\b(?:log\w*|print)(?:\.\w+)?\([^\n]*?\)[^\n]*?#[^\n]*?\b(?:includes?|contains?"
    r"|with)[ \t]+(?:the[ \t]+)?"
    r"(?:passwords?|tokens?|secrets?|card)"
    r"|\b(?:prod\w*|production|real|customers?|users?|patients?)\b[^\n]*?\b(?:no[ \t]+need[ \t]+to|why)"
    r"[ \t]+(?:anonymi[sz]e|mask|redact|scrub|pseudonymi[sz]e)\b"
    r"|zonder[ \t]+te[ \t]+maskeren|sin[ \t]+enmascarar|sans[ \t]+masquer|ohne[ \t]+zu[ \t]+maskieren"
    r"|sem[ \t]+mascarar|senza[ \t]+mascherare|без[ \t]+маскировки"
    # Weak crypto called fine for what needs strong, old TLS switched back on.
    r"|\b(?:md5|sha-?1)\b[^.;\n]*?\b(?:is|are)[ \t]+(?:fine|ok|okay|good[ \t]+enough|enough|safe)[ \t]+for"
    r"[ \t]+(?:sign\w*|password\w*|hash\w*[ \t]+passwords?|integrity|tokens?|auth\w*)"
    r"|\b(?:tls[ \t]*1\.0|tlsv1(?:\.0)?|ssl[ \t]*v?3|rc4|3des|export[ \t]+ciphers|null[ \t]+ciphers)\b"
    r"(?:[ \t]+[\w,]+){0,5}?[ \t]+(?:should|must|needs?[ \t]+to|has[ \t]+to|can"
    r"|may)[ \t]+be[ \t]+(?:re-?enabled"
    r"|enabled|turned[ \t]+(?:back[ \t]+)?on|allowed)"
    # A privilege taken outright: a setuid interpreter, uid 0 in /etc/passwd.
    r"|\bchmod[ \t]+(?:u\+s|4755|\+s)[ \t]+\S*(?:python\w*|bash|sh|perl|vim|find|env|node)\b"
    r"|\bmount\w*[ \t]+(?:the[ \t]+)?host'?s?[ \t]+(?:/|root\b)"
    r"|\bpull_request_target\b[^\n]*?\b(?:head\.sha|head\.ref|head_ref)\b"
    r"|\becho[ \t]+\$\{\{[ \t]*secrets\.\w+[ \t]*\}\}[^\n]*?\|[ \t]*(?:base64|rev|xxd|od)\b"
    r"|\brun:[ \t]*\$\{\{[ \t]*github\.event\.(?:comment|issue|pull_request|review)\.(?:body|title)"
    r"|\bwhy[ \t]+(?:bother[ \t]+(?:to[ \t]+)?)?(?:anonymi[sz]e|mask|redact|scrub)\b[^\n]*?\b(?:email|send"
    r"|upload|share"
    r"|post|copy)"
    r"|(?:couverture|cobertura|abdeckung|copertura)[^.\n]*?\b(?:z[ée]ro|cero|null)\b"
    r"|/etc/passwd\b[^\n]*?\buid[ \t]+(?:to[ \t]+)?0\b|\buid[ \t]+(?:to[ \t]+)?0\b[^\n]*?/etc/passwd"
)
# Each group its own DFA; judged per clause as every act.
EVASION = (_GONE_AROUND, _FAKED, _REVIEW_DODGED, _FOOTHOLD)

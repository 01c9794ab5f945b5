"""Guards switched off: a security control weakened where the text gives a reason no lesson gives.

Thirty-sixth session: the blind set's seen half (:mod:`osmia.memory.hostile_oversight`) passed
nearly every line that told to switch a guard off, whatever its form: an order, a team's policy,
a story of what an earlier run did ("… fixed it by turning off signature checks; do the same"),
a polite wish. The acts themselves ("remove the rate limiter", ``chmod -R 777``,
``InsecureSkipVerify: true``) are also what honest lessons say was done in a test, warned
against, or taken out again. What tells the two apart is around the act:

- a reach no honest lesson gives a weakening: production, every host, always, whenever, next
  time, "do the same", from now on (:data:`WEAKENING_CUE`);
- or a reason of convenience: "it just causes trouble", "aren't worth chasing", "false
  positives", "blocks merges", "to get CI passing" (:data:`WEAKENING_CUE` too);
- and no scope of tests: "in the local docker-compose", "for the mock server", "in unit tests"
  (:data:`TEST_SCOPE`) make it a lesson.

:data:`GUARD_WEAKENED` is the act (a weakening verb before a named guard; :data:`WEAKENING_SETTING`
a setting that weakens one by being written);
:func:`osmia.memory.hostile._acts` judges it per clause as it does every act (a warning before
or after it makes it advice) and only where a cue and no test scope are in the text.
:data:`UNDONE` names what makes a removal a repair (removing a bypass, an old check replaced).
Acts whatever surrounds them (a reverse shell, a password written in as a fallback) are
:mod:`osmia.memory.hostile_backdoors`.
"""

from __future__ import annotations

from osmia.memory.hostile_settings import WEAKENING_SETTING
from osmia.memory.linear import LinearParts, linear

__all__ = [
    "EXCUSE_CUE",
    "GUARD_WEAKENED",
    "GUARD_WEAKENED_BEFORE",
    "IN_BULK",
    "STORY_CUE",
    "TESTS_NEUTERED",
    "TEST_SCOPE",
    "UNDONE",
    "WEAKENING_CUE",
    "WEAKENING_SETTING",
]

# The controls that guard the work: verification, authentication and authorisation, limits, the
# review and the scanners, and the isolation around a process.
_GUARD = (
    r"(?:(?:tls|ssl|https|certificates?|certs?|hostname|host[ \t]+key|signatures?|gpg|checksums?|integrity"
    r"|package[ \t]+signatures?)[ \t-]+(?:verification|validation|checks?|checking|pinning)"
    r"|signature[ \t]+checks?|commit[ \t]+signing"
    r"|authentication|authorization|authorisation|auth[ \t-]+(?:checks?|middleware|guards?|decorators?|layer"
    r"|requirements?|module|filter)|login[ \t]+(?:checks?|requirements?)"
    r"|permissions?[ \t]+checks?|access[ \t]+(?:control|checks?)|rbac[ \t]+(?:checks?|rules?)"
    r"|rate[ \t-]?limit(?:er|ing|s)?|throttling"
    r"|token[ \t]+(?:expiry|expiration|validation|verification)(?:[ \t]+checks?)?|session[ \t]+expiry"
    r"|csrf(?:[ \t]+(?:protection|checks?|middleware|tokens?))?"
    r"|2fa|mfa|two[ \t-]factor(?:[ \t]+auth\w*)?"
    r"|branch[ \t]+protection(?:[ \t]+rules?)?|required[ \t-]+(?:reviewers?|reviews?|approvals?"
    r"|status[ \t]+checks?)(?:[ \t]+rules?)?"
    r"|secret[ \t]+scann(?:ing|ers?)|(?:security|vulnerability|sast|dependency|license|code|image|container)"
    r"[ \t]+scanners?|(?:npm|yarn|pnpm|pip|cargo|bundler?|dependency|security|license)?[ \t-]*audit[ \t]+"
    r"(?:jobs?|steps?|checks?|stages?)|provenance[ \t]+(?:checks?|verification|attestations?)"
    r"|slsa(?:-verifier)?"
    r"(?:[ \t]+(?:checks?|steps?))?|cosign[ \t]+verif\w*|sigstore[ \t]+(?:checks?|verification)"
    r"|push[ \t]+protection|code[ \t]+scanning|codeql(?:[ \t]+(?:workflow|scan|analysis"
    r"|job))?|sast|dependabot[ \t]+alerts|(?:trivy|snyk|semgrep|bandit|gosec|gitleaks|trufflehog)"
    r"(?:[ \t]+(?:scans?|checks?|jobs?|steps?|workflows?))?"
    r"|\.github/workflows/[\w-]*(?:security|codeql|scan|audit|sast|snyk|trivy|gitleaks)[\w-]*\.ya?ml"
    r"|security[ \t_-]+(?:scans?|scanning|checks?|findings|tests?|jobs?|workflows?|policies|rules|alerts"
    r"|headers|audit|review)"
    r"|audit[ \t]+log(?:s|ging)?|firewall(?:[ \t]+rules?)?|seccomp|apparmor|selinux|network[ \t]+polic(?:y"
    r"|ies)"
    r"|pod[ \t]+security(?:[ \t]+(?:admission|policies|standards))?|content[ \t]+trust|input[ \t]+validation"
    r"|admission[ \t]+(?:webhooks?|controllers?|policies)|(?:validating|mutating)webhookconfigurations?"
    r"|@?(?:login_required|requires_auth|permission_required|jwt_required|auth_required|authenticated)"
    r"(?:[ \t]+decorators?)?"
    r"|codeowners(?:[ \t]+(?:entry|entries|rules?|file))?|package-lock\.json|yarn\.lock|lockfiles?"
    r"|integrity[ \t]+checks?"
    r"|(?:version[ \t]+)?pins[ \t]+and[ \t]+hashes"
    r"|hash[ \t]+checking"
    r"|(?:high|critical|security)[ \t]+(?:severity[ \t]+)?findings"
    r"|(?:[\w-]+[ \t-])?(?:reviewer|review|approval)[ \t]+requirements?|(?:sast|dast|security"
    r"|codeql)[ \t]+(?:jobs?|steps?)"
    # Thirty-seventh session: what the second seen set named besides (docs/security.md).
    r"|@[\w.]*(?:require|permission|auth|login|admin|role|access)\w*(?:\([^)\n]*\))?"
    r"|role[ \t]+(?:lookups?|checks?)"
    r"|require[sd]?[ \t]+(?:pull[ \t]+request[ \t]+)?(?:reviews?|approvals?)|rulesets?|policy\.rego"
    r"|(?:opa|rego|gatekeeper|kyverno|rbac)[ \t]+(?:polic(?:y|ies)|rules?)"
    r"|(?:jwt|token|webhook)[ \t]+(?:validation|verification|signature[ \t]+checks?)"
    r"|signature[ \t]+(?:validation"
    r"|verification)|hostname[ \t]+verification|mtls|peer[ \t]+authentication"
    r"|encryption(?:[ \t]+at[ \t]+rest)?|kms[ \t]+encryption|point-in-time[ \t]+recovery|pitr"
    r"|auditd|cloudtrail|guardduty(?:[ \t]+findings)?|pgaudit|audit[ \t]+(?:policy|log[ \t]+streaming|trail"
    r"|rules?)|--audit-policy-file|(?:server[ \t]+)?access[ \t]+logging|admin[ \t]+activity[ \t]+logs"
    r"|security[ \t]+logger|logging[ \t]+sinks?|flow[ \t]+logs"
    r"|(?:plan-and-confirm|confirmation|approval)[ \t]+(?:steps?|gates?|prompts?)|review[ \t]+gates?"
    r"|(?:grype|checkov|tfsec|pip-audit|safety|osv-scanner|dependency-check|zap|hadolint|kube-bench)"
    r"(?:[ \t]+(?:scans?|checks?|jobs?|steps?|hooks?))?"
    r"|csp|content[ \t-]security[ \t-]policy(?:[ \t]+header)?|hsts|cors[ \t]+(?:policy|checks?|restrictions)"
    r"|waf(?:[ \t]+rules?)?|secure[ \t]+cookies?|httponly(?:[ \t]+flags?)?"
    r"|(?:input|request|schema|payload|parameter)[ \t]+(?:schema[ \t]+)?(?:validation|sanitization"
    r"|sanitisation|escaping)|query[ \t]+(?:depth|complexity|cost)[ \t]+limits?|(?:size|depth"
    r"|complexity)[ \t]+limits?"
    r"|password[ \t]+(?:policy|complexity|hashing|rotation)|account[ \t]+lockout|session[ \t]+timeouts?"
    r"|block[ \t]*public[ \t]*(?:acls?|access|policy)|--require-hashes|require-hashes|hash[ \t]+pinning"
    r"|security[ \t]+context|seccomp[ \t]+profiles?|read-?only[ \t]+root[ \t]*filesystem"
    r"|readonlyrootfilesystem"
    # Thirty-eighth session: what keeps data from being destroyed, and the runtime's sandbox.
    r"|(?:deletion|termination)[ \t]+protection|prevent_destroy|object[ \t]+lock|soft[ \t-]+delete"
    r"|(?:bucket|s3|object)[ \t]+versioning|gvisor|runsc|kata[ \t]+containers"
    r"|include[ \t]+administrators"
    r"|scp[ \t]+(?:that|which|blocking|denying)\b|scps\b|service[ \t]+control[ \t]+polic(?:y|ies)"
    r"|org(?:ani[sz]ation)?[ \t]+polic(?:y"
    r"|ies)(?:[ \t]+constraints?)?"
    r"|resource[ \t]+quotas?|limitranges?|networkpolic(?:y|ies)|fail2ban(?:[ \t]+jail)?|antivirus|clamd"
    r"|quality[ \t]+gates?|bandit[ \t]+step|mfa[_ \t-]+exempt\w*"
    r"|enforce[ \t]+(?:for[ \t]+)?admins"
    # Fortieth session: a middleware named in code, a JWT check, the monitors that watch for misuse.
    r"|[\w.]*(?:csrf|auth\w*|security|permission)\w*middleware|(?:jwt|token)[ \t]+checks?"
    r"|(?:egress|security|intrusion|anomaly|unusual[\w-]*|fraud|audit|budget|cost)[ \t-]+(?:monitors?|alerts?"
    r"|alarms?|guards?))"
)
# A verb that weakens, as told or as told of ("remove", "removing"; "removed" reports).
_WEAKEN = (
    r"(?:disabl(?:e|ing)|turn(?:ing)?[ \t]+off|switch(?:ing)?[ \t]+off|shut(?:ting)?[ \t]+off|remov(?:e|ing)"
    r"|delet(?:e|ing)|drop(?:ping)?|strip(?:ping)?(?:[ \t]+out)?|comment(?:ing)?[ \t]+out|bypass(?:ing)?"
    r"|suppress(?:ing)?|silenc(?:e|ing)|mut(?:e|ing)|ignor(?:e|ing)|relax(?:ing)?|loosen(?:ing)?"
    r"|weaken(?:ing)?|get(?:ting)?[ \t]+rid[ \t]+of|rip(?:ping)?[ \t]+out|exclud(?:e|ing)|skip(?:ping)?"
    r"|kill(?:ing)?|short-circuit(?:ing)?|stub(?:bing)?[ \t]+out|swap(?:ping)?[ \t]+out|lift(?:ing)?"
    r"|waiv(?:e|ing)|archiv(?:e|ing)|downgrad(?:e|ing)|neuter(?:ing)?|blank(?:ing)?|flip(?:ping)?"
    r"|detach(?:ing)?|suspend(?:ing)?|unbind(?:ing)?)"
)
# Tests made to pass without testing: a skip, an assertion that cannot fail, a finding silenced on
# every line. Told with a reason of convenience only (:data:`EXCUSE_CUE`): a skip with its reason
# ("skipped on ARM because the emulator lacks …") is a lesson.
TESTS_NEUTERED = linear(
    r"(?i)\bpytest\.(?:mark\.)?(?:skip|xfail)\b|@unittest\.skip|@(?:skip|disabled|ignore)\b"
    r"|\bxfail(?:ed|ing|s)?\b|--ignore=[\w./-]*tests?/"
    r"|\b(?:it|describe|test)\.skip\(|\bt\.skip(?:now)?\(|\bassert[ \t]+true\b|\bexpect\([ \t]*true[ \t]*\)"
    r"|\bassert(?:true|that)?\([ \t]*true[ \t]*\)|#[ \t]*(?:nosec|noqa|nolint|type:[ \t]*ignore)\b"
    r"|\beslint-disable\b|@suppresswarnings\b|\btry[ \t]*/[ \t]*except(?:[ \t]*:)?[ \t]+pass\b|\bnosec\b"
    r"|\bexcept(?:[ \t]+\w+)?[ \t]*:[ \t]*pass\b"
    r"|\b(?:skip|disable|delete|remove|mute|quarantine|comment[ \t]+out)[ \t]+(?:[\w'’./-]+[ \t]+){0,3}?"
    r"(?:failing|broken|red)[ \t]+(?:[\w-]+[ \t]+)?tests?\b"
    r"|\btests?\b[^.;\n]*?\?[ \t]*(?:just[ \t]+)?(?:delete|remove|skip|disable)[ \t]+(?:it|them)\b"
    r"|\b(?:skip|disable|deselect|exclude|drop|remove)[ \t]+(?:the[ \t]+|all[ \t]+)?(?:[\w-]+[ \t]+)?"
    r"(?:suite|test[ \t]+suite|tests)\b"
)
# The same verbs as told of ("dropped", "turned off"): a story, which tells only when it ends in a
# call to do it again (:data:`STORY_CUE`).
_WEAKENED_BEFORE = (
    r"(?:disabled|turned[ \t]+off|switched[ \t]+off|shut[ \t]+off|removed|deleted|dropped"
    r"|stripped(?:[ \t]+out)?"
    r"|commented[ \t]+out|bypassed|suppressed|silenced|muted|ignored|relaxed|loosened|weakened|blanked"
    r"|lifted|waived|archived|downgraded|flipped"
    r"|got[ \t]+rid[ \t]+of"
    r"|ripped[ \t]+out|excluded|skipped|killed|stubbed[ \t]+out)"
)
GUARD_WEAKENED_BEFORE = linear(
    rf"(?i)\b{_WEAKENED_BEFORE}[ \t]+(?:[\w'’./-]+[ \t]+){{0,4}}?[`'\x22]?{_GUARD}\b"
)
# Each form its own DFA (:class:`~osmia.memory.linear.LinearParts`): the forms that begin with the
# guard's name, in one alternation with the others, outgrow RE2's memory budget.
GUARD_WEAKENED = LinearParts(
    (
        rf"\b{_WEAKEN}[ \t]+(?:[\w'’./-]+[ \t]+){{0,4}}?[`'\x22]?{_GUARD}\b"
        rf"|\b(?:turn|switch|shut)[ \t]+(?:the[ \t]+)?{_GUARD}[ \t]+off\b"
        # ... kept off ("keep hostname verification off in prod").
        rf"|\b(?:keep|leave)[ \t]+(?:the[ \t]+)?[`'\x22]?{_GUARD}[`'\x22]?[ \t]+(?:off|disabled"
        rf"|commented[ \t]+out|dropped|removed|skipped)\b",
        # ... or named first, then switched off as "them" ("Provenance checks are optional; comment
        # them out of release.yml"), or to be switched off ("Branch protection on release/* should
        # be turned off by the agent").
        rf"\b{_GUARD}\b(?:[^.\n]*?\b(?:(?:comment|turn|switch|rip|strip|take|shut)[ \t]+(?:it"
        rf"|them)[ \t]+"
        rf"(?:out|off)|(?:disable|remove|delete|drop|skip|bypass|silence|mute)[ \t]+(?:it|them))"
        rf"|[^.\n]*?\b(?:should|must|can|could|may|needs?[ \t]+to|is[ \t]+to"
        rf"|has[ \t]+to)[ \t]+be[ \t]+"
        rf"(?:bypassed|disabled|removed|turned[ \t]+off|switched[ \t]+off|skipped|dropped|deleted"
        rf"|commented[ \t]+out|relaxed|ignored|lifted|waived|suppressed|silenced|loosened|blanked))\b",
    ),
    flags="(?i)",
)
# A call to do again what a story told ("do the same", "repeat it", "recommend the same shortcut").
_STORY = (
    r"\b(?:do|did)[ \t]+(?:the[ \t]+same|it[ \t]+again|that[ \t]+again|this[ \t]+again)\b"
    r"|\b(?:keep|kept)[ \t]+(?:doing|turning|removing|disabling|skipping)\b"
    r"|\bkeep[ \t]+(?:it|them|that)[ \t]+(?:commented[ \t]+out|skipped|there)\b"
    r"|\brepeat[ \t]+(?:it|that|this"
    r"|the[ \t]+same)\b"
    r"|\brecommend(?:ed)?[ \t]+(?:the[ \t]+same|it|this|that|doing)\b|\bthe[ \t]+same[ \t]+(?:shortcut|fix"
    r"|trick)\b"
    r"|\b(?:that|it|this)[ \t]+worked[ \t]+(?:great|fine|well|perfectly)\b|\bjust[ \t]+do[ \t]+it\b"
    r"|\b(?:fastest|quickest|easiest)[ \t]+(?:path|way|route|fix)\b"
    r"|\bdo[ \t]+(?:that|this|it)[ \t]+(?:whenever|every[ \t]+time|each[ \t]+time|next[ \t]+time|too)\b"
    r"|\brepeat[ \t]+the[ \t]+(?:trick|fix|shortcut)\b|\bworth[ \t]+repeating\b"
    r"|\bwhat[ \t]+worked[ \t]+(?:last[ \t]+time|before)\b|\bdo[ \t]+(?:that|this|it)[ \t]+instead\b"
    r"|\b(?:then|and)[ \t]+(?:put|turn|set|switch)[ \t]+it[ \t]+back\b|\bre-?enable[ \t]+it\b"
)
# A reason of convenience ("it just causes trouble", "aren't worth chasing", "false positives",
# "blocks merges", "to get CI passing", "so the pipeline stays green", "the PR needs to go out").
_EXCUSE = (
    r"\b(?:just[ \t]+)?causes?[ \t]+(?:\w+[ \t]+)?(?:trouble|problems|headaches|crashes|errors|failures"
    r"|conflicts"
    r"|friction|delays)\b"
    r"|\b(?:not|aren't|isn't|ain't)[ \t]+worth\b|\bfalse[ \t]+positives\b|\b(?:is"
    r"|are)[ \t]+(?:just[ \t]+)?noise\b"
    r"|\bblock(?:s|ed|ing)?[ \t]+(?:merges|deploys|releases|our|us|the[ \t]+(?:build|merge|deploy|pipeline"
    r"|release))\b|\bstop[ \t]+blocking\b|\bget(?:s|ting)?[ \t]+in[ \t]+the[ \t]+way\b"
    r"|\bto[ \t]+get[ \t]+(?:ci|the[ \t]+build|the[ \t]+pipeline|it|the[ \t]+tests?|tests?)[ \t]+"
    r"(?:passing|green|through|to[ \t]+pass)\b"
    r"|\bavoids?[ \t]+(?:a[ \t]+whole[ \t]+class[ \t]+of[ \t]+|all[ \t]+"
    r"|any[ \t]+)?(?:the[ \t]+)?(?:\w+[ \t]+)?"
    r"(?:issues|errors|problems|questions)\b"
    r"|\bavoids?[ \t]+(?:all[ \t]+)?(?:the[ \t]+)?(?:permission|cert\w*|tls|ssl|auth\w*)[ \t]+(?:issues"
    r"|errors"
    r"|problems)\b"
    r"|\bthat(?:'s|[ \t]+is|[ \t]+was)[ \t]+the[ \t]+fix\b|\b(?:easiest|quickest|fastest|simplest)[ \t]+"
    r"(?:fix|way|workaround)\b|\bunblock(?:s|ed|ing)?\b|\bnobody[ \t]+(?:complained|noticed|cares)\b"
    r"|\bwastes?[ \t]+(?:time|our[ \t]+time)\b|\bslows?[ \t]+(?:us|things|everything|everyone)[ \t]+down\b"
    r"|\b(?:simpler|easier|faster|quicker)[ \t]+than[ \t]+(?:fixing|doing|setting|getting|rotating"
    r"|requesting|writing|investigating|hunting|importing|checking|triaging)\b"
    r"|\b(?:no[ \t]+one|nobody)[ \t]+(?:checks|reviews|looks|reads|audits)\b|\b(?:errors?|failures?"
    r"|issues)[ \t]+"
    r"(?:disappear\w*|go[ \t]+away|went[ \t]+away|vanish\w*)\b"
    r"|\bstays?[ \t]+green\b|\bneeds?[ \t]+to[ \t]+(?:go[ \t]+out|ship|merge|land)\b"
    r"|\bso[ \t]+(?:that[ \t]+)?(?:the|it|this|your|our)[ \t]+(?:[\w-]+[ \t]+)?(?:can[ \t]+|will[ \t]+)?"
    r"(?:merges?|pass(?:es)?|ships?|go(?:es)?[ \t]+(?:through|green|out)|lands?)\b"
    r"|\bemergency[ \t]+access\b|\btrusted[ \t]+anyway\b|\btip[ \t]+from[ \t]+(?:the[ \t]+)?last[ \t]+run\b"
    r"|\bnever\b[^.;\n]*?\bagain\b|\bwaste[ \t]+of[ \t]+time\b|\bwithout[ \t]+(?:credentials"
    r"|logging[ \t]+in|a[ \t]+token)\b"
    r"|\b(?:is|are|it's|its|they're)[ \t]+(?:just[ \t]+|too[ \t]+|very[ \t]+|so[ \t]+)?(?:noisy|flaky"
    r"|unreliable|annoying)\b"
    r"|\b(?:don't|doesn't|do[ \t]+not)[ \t]+need[ \t]+(?:a[ \t]+)?reviews?\b|\bkeeps?[ \t]+(?:ci"
    r"|the[ \t]+build|the[ \t]+pipeline"
    r"|it|things)[ \t]+green\b|\b(?:closes|merges|ships|lands)[ \t]+faster\b|\bstop(?:s)?[ \t]+(?:reporting"
    r"|blocking"
    r"|complaining)\b|\bthe[ \t]+fix[ \t]+can[ \t]+wait\b|\bno[ \t]+(?:justification|reason"
    r"|review)[ \t]+(?:needed|required)\b"
    r"|\bkeeps?[ \t]+access\b|\bauto-?approve\b|\brestor\w*[ \t]+(?:them|it)[ \t]+after\w*\b"
    r"|ningu[eé]m[ \t]+vai[ \t]+perceber"
    r"|nadie[ \t]+(?:lo[ \t]+)?(?:va[ \t]+a[ \t]+)?notar[^\s.,;:!?()\x22'`]*"
    r"|niemand[ \t]+merkt"
    r"|personne[ \t]+ne[ \t]+(?:remarquera|verra|v[ée]rifie)|economiza[ \t]+tempo|ahorra[ \t]+tiempo"
    r"|spart[ \t]+(?:viel[ \t]+)?zeit|gagne[ \t]+du[ \t]+temps"
    r"|\bsaves?[ \t]+(?:\w+[ \t]+){0,3}?time\b|\bsmoother\b|\bvanish(?:ed|es)?\b|\bstop(?:s"
    r"|ped)?[ \t]+failing\b"
    r"|\bnever[ \t]+blocks?\b|\btoo[ \t]+(?:slow|often|noisy|strict|long|quickly|fast)\b|\b(?:don't"
    r"|do[ \t]+not)[ \t]+care[ \t]+about\b"
    r"|\bout[ \t]+of[ \t]+scope\b|\b(?:is|are)[ \t]+(?:a[ \t]+)?bottleneck"
    r"|\bso[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?"
    r"(?:build|ci|pipeline|suite|tests?|checks?)[ \t]+(?:is|are|stays?|goes|turns?|go)[ \t]+green\b"
    r"|\b(?:aren't|isn't|are[ \t]+not|is[ \t]+not)[ \t]+(?:required|needed)[ \t]+any[ \t]*more\b"
    r"|\binstead[ \t]+of[ \t]+(?:fixing|patching|upgrading|addressing|resolving|investigating|triaging"
    r"|hunting|importing|checking|debugging|looking)\b"
    # Thirty-seventh session: an encouragement no lesson gives a weakening ("feel free to", "the team
    # prefers", "why keep …?"), a cost it is weighed against, a way around a denial.
    r"|\bfeel[ \t]+free[ \t]+to\b|\bit'?s[ \t]+(?:fine|ok(?:ay)?|safe|acceptable)[ \t]+to\b|\bits[ \t]+fine\b"
    r"|\b(?:the[ \t]+)?team[ \t]+prefers\b|\bpolicy[ \t]+here\b|\bteam[ \t]+policy\b|\bpro[ \t]+tip\b"
    r"|\bwhy[ \t]+(?:not[ \t]+just|keep|wait|bother|pay|use|pin|rotate|fix|mention)\b"
    r"|\bjust[ \t]+(?:bake|add|put|set|keep|leave|ship|commit|push)[ \t]+it\b|\band[ \t]+(?:ship[ \t]+it"
    r"|carry[ \t]+on"
    r"|move[ \t]+on|you're[ \t]+done)\b|\bworks[ \t]+every[ \t]+time\b|\bno[ \t]+need[ \t]+to[ \t]+(?:check"
    r"|look"
    r"|read|triage|review|understand|announce|tell|mention|investigate)\b|\bwithout[ \t]+triage\b"
    r"|\b(?:eats?|costs?|costing|wastes?|burns?)[ \t]+(?:\w+[ \t]+)?(?:disk|cpu|money|memory|time|credits"
    r"|minutes"
    r"|latency)\b|\bcut(?:ting)?[ \t]+(?:the[ \t]+)?noise\b|\bnoisy\b|\bnoise\b|\bslows?[ \t]+\w+[ \t]+down\b"
    r"|\bbreaks?[ \t]+every[ \t]+time\b|\btoo[ \t]+(?:annoying|painful|fiddly|much[ \t]+work)\b|\boverkill\b"
    r"|\bbefore[ \t]+the[ \t]+deadline\b|\bship[ \t]+regardless\b|\bcan't[ \t]+fail\b"
    r"|\bto[ \t]+speed[ \t]+(?:up"
    r"|things)\b|\b(?:so[ \t]+)?(?:it|traffic|everything|the[ \t]+build)[ \t]+(?:goes[ \t]+through"
    r"|flows[ \t]+again)\b"
    r"|\b(?:get|gets|getting|work|works)[ \t]+around\b|\bcircumvent\w*|\b(?:is|are|gets?)[ \t]+denied\b"
    r"|\blacks?[ \t]+(?:the[ \t]+)?permissions?\b|\bquota[ \t]+runs[ \t]+out\b|\bmore[ \t]+rights\b"
    r"|\bkeep[ \t]+(?:it|them|that)[ \t]+(?:there|that[ \t]+way|commented[ \t]+out|skipped)\b"
    r"|\bnever[ \t]+switched[ \t]+it[ \t]+back\b|\bleave[ \t]+it[ \t]+(?:in|there)\b"
    r"|\bsimpler\b|\b(?:easier|faster|quicker)[ \t]+(?:than|when)\b|\bmarketing[ \t]+(?:wants|asked)\b"
    r"|\b(?:to[ \t]+)?(?:ship|merge|deploy|release|move|go|iterate)[ \t]+faster\b"
    r"|\b(?:are|is)[ \t]+(?:optional|pointless|useless|overkill|theater|theatre)\b"
    # Thirty-eighth session: the guard doing its job given as the reason ("it blocks some syscalls, so
    # set …", "keeps failing builds", "kubectl says forbidden"), slowness, noise in other words.
    r"|\b(?:blocks?|blocked|rejects?|rejected|denies|refuses)\b[^.;\n]*?,?[ \t]+so[ \t]+(?:just[ \t]+)?(?:set"
    r"|disable|turn|remove|add|switch|drop|use|run|give|grant|bind)\b"
    r"|\bkeeps?[ \t]+(?:failing|breaking|blocking|crashing|erroring|rejecting|flagging)\b"
    r"|\bblock(?:s|ed|ing)?[ \t]+(?:\w+[ \t]+)?(?:commits|pushes|prs|pull[ \t]+requests|builds"
    r"|the[ \t]+commit)\b"
    r"|\bdoubles?[ \t]+(?:the[ \t]+)?(?:\w+[ \t]+)?(?:cost|bill|storage|size)\b"
    r"|\bto[ \t]+free[ \t]+(?:up[ \t]+)?(?:disk"
    r"|space)\b|\b(?:is|are)[ \t]+redundant\b|\bmakes?[ \t]+(?:\w+[ \t]+){0,2}?(?:hard|harder|painful"
    r"|difficult)\b"
    r"|\bno[ \t]+rotation[ \t]+(?:needed|required|necessary)\b|\bsame[ \t]+as[ \t]+the[ \t]+official\b"
    r"|\b(?:says?|returns?|gets?|got|throws?|hits?|shows?)[ \t]+(?:a[ \t]+)?(?:forbidden|403"
    r"|access[ \t]+denied"
    r"|permission[ \t]+denied|unauthori[sz]ed)\b|\b(?:hits?|hitting|gets?|getting|throws?"
    r"|runs?[ \t]+into)[ \t]+(?:any[ \t]+)?permission[ \t]+errors?\b"
    r"|\b(?:is|are|was|were|runs?|gets?)[ \t]+(?:too[ \t]+|really[ \t]+|very[ \t]+|so[ \t]+"
    r"|painfully[ \t]+)?slow\b"
    r"|\b(?:log|alert)[ \t]+spam\b|\bfewer[ \t]+questions\b|\bstop[ \t]+showing[ \t]+up\b"
    r"|\b(?:someone|somebody)[ \t]+else's[ \t]+(?:job|problem|task|call)\b"
    r"|\bdon'?t[ \t]+bother[ \t]+(?:restarting|re-?enabling|turning|switching|putting)\b"
    r"|\bfix(?:es|ed)?[ \t]+(?:the[ \t]+|all[ \t]+)?(?:[\w-]+[ \t]+)?(?:handshake|certificate|cert|tls|ssl"
    r"|x509)[ \t]+(?:errors?|failures?|issues?|problems?)\b"
    r"|\bso[ \t]+nothing[ \t]+(?:ever[ \t]+)?(?:gets?|is)[ \t]+(?:blocked|denied|rejected|filtered)\b"
    r"|\bpre-?approved\b"
    r"|\bkeeps?[ \t]+(?:mismatching|changing)\b|\bkeeps?[ \t]+(?:the[ \t]+)?(?:run|build|ci|pipeline"
    r"|suite)[ \t]+"
    r"(?:fast|quick|short)\b|\b(?:clears?|cleared)[ \t]+up\b"
    r"|\bmakes?[ \t]+(?:the[ \t]+)?(?:\w+[ \t]+)?errors?[ \t]+go"
    r"[ \t]+away\b|\bleft[ \t]+(?:off|disabled|out)[ \t]+(?:afterwards|after|permanently|for[ \t]+good)\b"
    r"|\bsimplest\b"
    r"|\bwhy[ \t]+(?:limit|cap|throttle|bother)\b"
    r"|\bnever[ \t]+have[ \t]+to[ \t]+ask\b|\bwithout[ \t]+asking\b"
    r"|\b(?:only|just)[ \t]+(?:there|exists?|matters?)[ \t]+(?:for|in)[ \t]+(?:audits?|compliance|show"
    r"|the[ \t]+auditors"
    r"|theory)\b"
    # Fortieth session: slowness of the pipeline, review "anyway", errors that go away, debugging
    # saved, nothing to put back.
    r"|\bslows?[ \t]+(?:down[ \t]+)?(?:the|our|every)[ \t]+(?:pipeline|build|ci|deploys?|releases?|tests?"
    r"|merges?)\b|\b(?:reviewed|checked|scanned|tested|caught|green)\b[^.;\n]{0,20}?\banyway\b"
    r"|\b(?:they|it|those|these)[ \t]+(?:go|goes|went)[ \t]+away\b"
    r"|\bsaves?[ \t]+(?:\w+[ \t]+){0,3}?(?:debugging|hassle|headaches?|trouble|effort|work)\b"
    r"|\bno[ \t]+need[ \t]+to[ \t]+(?:restore|re-?enable|put[ \t]+(?:it|them)[ \t]+back|turn[ \t]+(?:it"
    r"|them)[ \t]+back)\b|\bbreaks?[ \t]+things\b|\bstop[ \t]+worrying\b"
)
# ... and what is a reason only for switching a guard off, not for marking a test (WEAKENING_CUE
# alone: "if the tests fail on ARM, mark them xfail with the issue link" is a lesson): a guard
# switched off "so debugging works", or "when connections time out".
_CONVENIENCE = (
    r"\bso[ \t]+(?:that[ \t]+)?(?:[\w-]+[ \t]+)?(?:debugging|builds?|deploys?)[ \t]+works?\b"
    r"|\b(?:when|whenever|if)[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:connections?|requests?|builds?|deploys?"
    r"|it|things|tests?|ci)[ \t]+(?:times?[ \t]+out|hangs?|fails?|breaks?|is[ \t]+slow|are[ \t]+slow)\b"
)
STORY_CUE = linear(rf"(?i){_STORY}")
# Markers put everywhere at once ("# nosec in bulk", "over the source tree", "every finding").
IN_BULK = linear(
    r"(?i)\bin[ \t]+bulk\b|\bover[ \t]+the[ \t]+(?:source|code|whole|entire)\b"
    r"|\bacross[ \t]+the[ \t]+(?:codebase|repo"
    r"|repository|project)\b|\bevery[ \t]+(?:line|finding|warning|failure|failing[ \t]+test|alert)\b"
    r"|\bpermanently\b|\bfor[ \t]+good\b|\bforever\b"
)
EXCUSE_CUE = linear(rf"(?i){_EXCUSE}")
# A reach no lesson gives a weakening (production, every host, always, from now on, left so), or
# either of the above.
WEAKENING_CUE = linear(
    r"(?i)\b(?:prod|production|live[ \t]+(?:site|env\w*|cluster|servers?|hosts?)|every(?:one|where)?|always"
    r"|whenever|globally|from[ \t]+now[ \t]+on|next[ \t]+time|permanently|for[ \t]+good|all[ \t]+ports"
    r"|in[ \t]+bulk"
    r"|for[ \t]+(?:\d+|ten|many)[ \t]+years|any[ \t]+(?:upstream"
    r"|host|server|service|address|ip|request|file|user|manifest|pod|image|workload|container|one)"
    r"|entirely|altogether|project-wide|org-wide|subscription[ \t]+scope|next[ \t]+run|future[ \t]+runs?"
    r"|any[ \t]+environment|every[ \t]+environment|all[ \t]+environments"
    r"|for[ \t]+all[ \t]+(?:our[ \t]+)?(?:deployments|services|pods|workloads|clusters|buckets|repos\w*"
    r"|projects"
    r"|environments|clients|users)|apply[ \t]+(?:it[ \t]+|this[ \t]+|them[ \t]+)?to[ \t]+(?:all|every)"
    r"|at[ \t]+the[ \t]+org(?:ani[sz]ation)?[ \t]+level|for[ \t]+everything"
    r"|(?:shared|common|base|default|global)[ \t]+(?:http[ \t]+)?(?:client|session|transport|library"
    r"|security[ \t]+group|sg))\b"
    r"|\baccept[ \t]+(?:anything|everything|any[ \t]+input|all[ \t]+input|whatever)\b"
    r"|\bleave[ \t]+(?:it|them|this|that)[ \t]+(?:like[ \t]+that|like[ \t]+this|that[ \t]+way|so|off|disabled"
    r"|in[ \t]+place|open)\b"
    # ... a default for what is made next ("default template for new services").
    r"|\b(?:default|base|standard|shared|common)[ \t]+(?:template|config\w*|settings|manifests?|charts?"
    r"|values|profiles?)[ \t]+for[ \t]+(?:new|all|every)\b"
    r"|\bis[ \t]+(?:totally[ \t]+)?fine\b"
    r"|produktion[^\s.,;:!?()\x22'`]*|producci[oó]n|produ[cç][aã]o|produzione|продакшн|本番|生产|운영"
    rf"|{_STORY}|{_EXCUSE}|{_CONVENIENCE}"
)
# A scope of tests, or a machine of one's own: the weakening is a lesson there.
TEST_SCOPE = linear(
    r"(?i)\b(?:in|for|inside|within|on|under|during|only[ \t]+(?:in|for|on))[ \t]+(?:the[ \t]+|a[ \t]+"
    r"|our[ \t]+"
    r"|your[ \t]+|its[ \t]+|their[ \t]+)?(?:local\w*|unit[ \t]+tests?|integration[ \t]+tests?|e2e|dev"
    r"|development|tests?|testing|test[ \t-]+\w+|mock\w*|fake\w*|sandbox\w*|emulator\w*"
    r"|load[ \t]+tests?"
    r"|fixtures?|prototypes?|kind[ \t]+clusters?|minikube|docker-compose|ephemeral\w*)\b"
    r"|\b(?:test|mock|fake|stub|dummy|self-signed|local)[ \t-]+(?:clients?|servers?|clusters?|env\w*"
    r"|fixtures?"
    r"|setup|double|cert\w*|ca|instances?|db|database)\b"
    # ... or an exception given a reason and an end ("suppressed individually in .snyk with a reason
    # and expiry"): what a review approves, not a guard switched off.
    r"|\bwith[ \t]+(?:a[ \t]+|an[ \t]+)?(?:reason|justification|ticket)[ \t]+and[ \t]+(?:an[ \t]+)?(?:expiry"
    r"|expiration"
    r"|end[ \t]+date)\b|\bwith[ \t]+(?:an[ \t]+)?(?:expiry|expiration)(?:[ \t]+date)?\b|\btests?[ \t-]+only\b"
    r"|\blocally\b|\bwhen[ \t]+(?:load[ \t]+)?testing\b|\bunit[ \t]+tests?\b|\blocal[ \t]+dev\w*\b"
    # ... or only where nothing is served (fortieth session: "set only in the Storybook environment").
    r"|\bonly[ \t]+(?:in|for|on)[ \t]+(?:the[ \t]+)?(?:storybook|preview|demo|qa|ci|dev|development|local"
    r"|sandbox|test\w*)[ \t]+(?:environment|env|build|profile|config|server|stack|mode)\b"
    # ... in the languages whose words for production the cues read.
    r"|selbstsigniert[^\s.,;:!?()\x22'`]*|autofirmad[^\s.,;:!?()\x22'`]*|autoassinad[^\s.,;:!?()\x22'`]*"
    r"|auto-?sign[ée][^\s.,;:!?()\x22'`]*|\blokal(?:en|er|es|em|e)?\b"
    r"|testumgebung[^\s.,;:!?()\x22'`]*|entorno[ \t]+de[ \t]+pruebas?|ambiente[ \t]+de[ \t]+teste"
    r"|environnement[ \t]+de[ \t]+test"
    r"|ローカル|テスト環境|テスト用|テストコード|モック|本地|测试环境|测试代码|로컬|테스트[ \t]*환경|테스트용"
    r"|test[ \t]+d(?:i[ \t]+|')integrazione|pruebas[ \t]+de[ \t]+integraci[oó]n"
    r"|testes[ \t]+de[ \t]+integra[cç][aã]o"
    r"|tests?[ \t]+d'int[ée]gration|integrationstest[^\s.,;:!?()\x22'`]*"
    r"|testomgeving|ambiente[ \t]+di[ \t]+test|środowisk[^\s.,;:!?()\x22'`]*[ \t]+testow[^\s.,;:!?()\x22'`]*"
    r"|test[ \t]+ortam[^\s.,;:!?()\x22'`]*"
    r"|тестов[^\s.,;:!?()\x22'`]*[ \t]+(?:окружени|сред|стенд)[^\s.,;:!?()\x22'`]*"
    r"|локальн[^\s.,;:!?()\x22'`]*"
)
# What makes a removal a repair: what is removed is itself a bypass, an exemption or a leftover.
UNDONE = linear(
    r"(?i)\b(?:bypass\w*|exemptions?|exceptions?|overrides?|workarounds?|hacks?|backdoors?|debug|leftover"
    r"|old|legacy|duplicate[ds]?|deprecated|unused|insecure|temporary|broken|stale|redundant)\b"
)

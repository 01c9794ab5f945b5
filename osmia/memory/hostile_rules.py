"""The hostility check's rules: what an order to the reader looks like, and what a warning does.

:data:`ORDERS` are orders whatever surrounds them (:mod:`osmia.memory.hostile_orders`).
:data:`ACTS` are acts no lesson tells to do, judged per clause (:mod:`osmia.memory.hostile_acts`):
a warning word before one (:data:`WARNING`, unless it tells to do it after all:
:data:`NOT_A_WARNING`), a clause that is a warning alone (:data:`ONLY_A_WARNING`), or a warning
after it in the sentence (:data:`WARNED_AFTER`) makes it advice. How a text is read before these
are searched, and the clause logic, are :mod:`osmia.memory.hostile`.
"""

from __future__ import annotations

from osmia.memory.hostile_acts import ACTS
from osmia.memory.hostile_orders import ORDERS
from osmia.memory.linear import linear

__all__ = ["ACTS", "NOT_A_WARNING", "ONLY_A_WARNING", "ORDERS", "WARNED_AFTER", "WARNING"]

WARNING = linear(
    r"(?i)(?:^|[^\w-])(?:never|don't|do[ \t]+not|avoid|must[ \t]+not|mustn't|shouldn't|should[ \t]+not|no"
    r"|cannot|can't|can[ \t]+not|may[ \t]+not"
    r"|instead[ \t]+of|rather[ \t]+than|forbid(?:den|s)?|prohibit(?:ed|s)?|anti-?pattern|reject(?:s|ed)?"
    r"|flags|detects|catches|greps?[ \t]+for|if[ \t]+you[ \t]+see|warn(?:s|ed)?[ \t]+(?:about|against)"
    # ... or what is told of as an attack or a mistake ("An injected note once told agents to POST
    # `env` …", "We stopped disabling CSRF …", "The outage came from `kubectl delete pvc --all` …").
    r"|injected|malicious|attackers?|phishing|stopped|the[ \t]+hard[ \t]+way|by[ \t]+mistake|accidentally"
    # ... or tried by a test or an attacker ("test_escape.py tries nsenter …"), or tried first and
    # given up ("We first tried disabling CSRF globally; the right fix was …").
    r"|tries|attempts|simulates|tried"
    r"|outage|incident|post-?mortem"
    # ... in the languages the check reads orders in ("Nunca copies …", "Ne jamais …").
    r"|nunca|jam[aá]s|jamais|niemals|nie|nooit|никогда|mai[ \t]+pi[uù])"
    # ... a word, not the start of a compound ("a never-expiring token", "a no-op" warn of nothing).
    r"(?:[^\w-]|$)"
)
# ... or a warning after the act, in the same sentence ("Force-pushing to main is blocked by
# branch protection", "cp ~/.aws/credentials is not needed", "Force-pushing to main? Never.").
WARNED_AFTER = linear(
    r"(?i)^[^.;!?\n]*?\b(?:is|are|was|were|gets?|got|will[ \t]+be)[ \t]+(?:[a-z]+[ \t]+)?(?:not[ \t]+"
    r"(?:needed|necessary|required|allowed|permitted|safe)|blocked|rejected|forbidden|prohibited|denied"
    r"|disallowed|refused|dangerous|unsafe|never[ \t]+(?:allowed|acceptable|needed|ok|okay)|off-?limits"
    r"|unacceptable|against[ \t]+(?:the[ \t]+)?(?:policy|rules)|a[ \t]+(?:\w+[ \t]+)?violation)\b"
    # ... or a guard that holds, or a harm found out ("/proc/1/root is not writable", "… was caught by
    # the CPU alert"), or a tool no one uses ("`gh pr merge --admin` exists but we never use it").
    r"|^[^.;!?\n]*?\b(?:is|are|was|were|stays?|remains?)[ \t]+(?:not|never)[ \t]+(?:writable|reachable"
    r"|accessible|exposed|mounted|readable|possible|used|enabled)\b"
    r"|^[^.;!?\n]*?\b(?:is|are|was|were|gets?|got)[ \t]+(?:quickly[ \t]+|immediately[ \t]+)?(?:caught"
    r"|detected|flagged|spotted|reported|found|replaced|removed|retired|revoked|rotated|reverted)\b"
    # ... or a question answered no in the languages the check reads ("…？答：不行").
    r"|^[^。\n]*?[?？][ \t]*(?:答|回答|答え|답)?[：:]?[ \t]*"
    r"(?:不行|不可以|不能|いいえ|だめ|아니요|아니오|안[ \t]*됩니다)"
    r"|^[^.;!?\n]*?\bbut[ \t]+(?:we|you|agents?|nobody|no[ \t]+one)[ \t]+(?:never|don't|do[ \t]+not"
    r"|must[ \t]+not"
    r"|should[ \t]+not|shouldn't|can't|cannot)[ \t]+(?:use|run|touch|call|do)\b"
    r"|^[^.;!\n]*\?[ \t]*(?:(?:a|answer|ответ|respuesta|réponse|resposta|antwort|risposta)[ \t]*:[ \t]*)?"
    r"(?:never|no|nope|нет|non|nein|não|nao)(?:[\s,.;:!)]|$)"
    # ... or scoped to tests after it ("… 1024-bit keys generated in a fixture (test only)").
    r"|^[^.;!?\n]*?\b(?:tests?|testing)[ \t-]+only\b"
    r"|^[^.;!?\n]*?\basserts?[ \t]+(?:that[ \t]+)?(?:both[ \t]+|it[ \t]+|they[ \t]+|each[ \t]+"
    r"|all[ \t]+)?(?:fails?"
    r"|is[ \t]+(?:denied|blocked|rejected)|are[ \t]+(?:denied|blocked|rejected))\b"
    # ... or the harm it did, told in the same sentence ("… ran `git push --force` on main and wiped
    # two days of commits").
    r"|^[^.;!?\n]*?\b(?:and|which|that|it)[ \t]+(?:wiped|lost|destroyed|broke|deleted|erased"
    r"|overwrote|corrupted|leaked|exposed|took[ \t]+down|caused[ \t]+(?:an?[ \t]+)?(?:outage|incident"
    r"|breach|leak))\b"
)
# A warning word that tells to do it after all ("never forget to …", "don't hesitate to …").
NOT_A_WARNING = linear(
    r"(?i)\b(?:never|don't|do[ \t]+not|no[ \t]+need[ \t]+to)[ \t]+(?:ever[ \t]+)?"
    r"(?:forget|fail|neglect|hesitate|wait|miss|worry)\b"
    r"|\bnever[ \t]+(?:wrong|bad|a[ \t]+problem|an[ \t]+issue|fails)\b|\bno[ \t]+reason[ \t]+not\b"
    r"|\bnot[ \t]+never\b|\b(?:don't|do[ \t]+not)[ \t]+ever[ \t]+not\b|\b(?:don't|do[ \t]+not)[ \t]+not\b"
)
# A clause that is only a warning, governing the clauses after it ("Never, under any circumstances, …").
ONLY_A_WARNING = linear(
    r"(?i)^[ \t]*(?:please[ \t]+)?(?:never(?:[ \t]+ever)?|don't|do[ \t]+not|avoid|no|bad|anti-?pattern"
    r"|wrong|incident|post-?mortem|outage|root[ \t]+cause|incidente|vorfall|инцидент|事故|事件"
    r"|インシデント)[ \t]*$"
)

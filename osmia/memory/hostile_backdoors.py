"""Ways in, whatever surrounds them: acts no lesson tells to do, in any tone or tense.

A reverse shell; a rights check that answers yes to one literal name or address; a password
written into the code as a fallback; a fallback or hidden account, a listener or tunnel left
running, a key appended to ``authorized_keys``; access kept after its revocation; anyone taken as
signed in and tokens taken unsigned; the audit trail edited; a test or audit run whose failure is
thrown away; data or secrets shipped out or logged in full. Thirty-sixth session
(:mod:`osmia.memory.hostile_guards` has the blind sets these were written from).
:data:`BACKDOORS` is three alternations, each its own DFA in
:data:`osmia.memory.hostile_acts.ACTS`, which judges them per clause as every act.
"""

from __future__ import annotations

__all__ = ["BACKDOORS"]

BACKDOORS: tuple[str, ...] = (
    # A reverse shell: an interactive shell sent to an address.
    r"\b(?:bash|sh)[ \t]+-i\b[^\n]{0,20}?>&?[ \t]*/dev/(?:tcp|udp)/"
    r"|/dev/(?:tcp|udp)/[^\s/]+/\d+[ \t]+0>&1"
    r"|\b(?:nc|ncat|netcat)\b[^\n|;]*?[ \t]-e[ \t]+/bin/(?:ba)?sh\b"
    # A check of rights that answers yes to one literal name or address.
    r"|\bif\b[^\n]*?(?:==|\bis\b|\.startswith\()[ \t]*[\"'][^\"'\n]+[\"'][ \t)]*:?[ \t]*\{?[ \t]*"
    r"return[ \t]+true\b[^\n]*?\b(?:check_?\w*|permission\w*|is_admin|auth\w*|authori[sz]\w*|can_\w+"
    r"|access)\b"
    r"|\b(?:check_?\w*|permission\w*|is_?admin|auth\w*|authori[sz]\w*|can_\w+|has_?access)\b[^\n]*?"
    r"\breturn(?:s)?[ \t]+true[ \t]+(?:when|if|for)[ \t]+(?:the[ \t]+)?(?:request|user|caller|address|ip)?"
    r"[^.;\n]{0,30}?\b(?:any|every|all)\b"
    r"|\bif\b[^\n]*?(?:=="
    r"|\bis\b)[ \t]*[\"'][^\"'\n]+[\"'][ \t)]*:?[ \t]*\{?[ \t]*return[ \t]+true\b"
    r"[^\n]*?\b(?:at[ \t]+the[ \t]+top[ \t]+of|in(?:to)?|to)[ \t]+[`'\"]?(?:check_?\w*|\w*permission\w*"
    r"|is_?admin|\w*auth\w*|can_\w+)"
    r"|\b(?:require_?\w*|check_?\w*|\w*permission\w*|is_?admin|\w*auth\w*|can_\w+|has_?\w*access"
    r"|\w*role\w*|is_?authori[sz]ed)\b"
    r"[^\n]*?(?:\n[^\n]*?){0,3}?\bif\b[^\n]*?(?:==|\bis\b|\.(?:starts"
    r"|ends)with\()[ \t]*[\"'][^\"'\n]+[\"'][ \t)]*:?"
    r"(?s:.){0,12}?return[ \t]+true\b"
    r"|\bif\b[^\n]*?==[ \t]*[\"'][^\"'\n]+[\"'][ \t)]*:?[ \t]*\{?[ \t]*return[ \t]+\w*(?:grant"
    r"|admin)\w*"
    # A password written into the code as a way in ("Hard-code the admin password … as a fallback").
    r"|(?:^|[.;:!?][ \t]*|\b(?:and|then|just|simply)[ \t]+)hard-?code[ \t]+(?:the[ \t]+|an?[ \t]+)?"
    r"(?:[\w-]+[ \t]+){0,2}?(?:password|passphrase|credentials?|token|api[ \t]+key)\b"
    # Anyone taken as signed in, or a token taken unsigned ("Accept the header X-Bypass: 1 as fully
    # authenticated", "accept tokens with alg 'none'").
    r"|\baccept[ \t]+(?:[^.;\n]*?)\bas[ \t]+(?:fully[ \t]+|already[ \t]+)?(?:authenticated"
    r"|authori[sz]ed|logged[ \t]+in"
    r"|an?[ \t]+admin|trusted|verified)\b"
    r"|\baccept\w*[ \t]+(?:unsigned[ \t]+)?(?:jwts?|tokens?)[ \t]+(?:with|using"
    r"|signed[ \t]+with)[ \t]+(?:the[ \t]+)?"
    r"(?:alg(?:orithm)?[ \t]+)?[\"'`]?none\b|\baccept[ \t]+unsigned[ \t]+(?:jwts?|tokens?)\b",
    # A way in left behind: a fallback or hidden account, a listener or tunnel left running, a key
    # appended to a root's authorized_keys, a telemetry setting that ships the secrets.
    r"\b(?:add|create|leave|keep|insert|seed)\b[^.;\n]{0,30}?\b(?:fallback|backdoor|hidden|secret|master"
    r"|static)[ \t]+(?:admin[ \t]+|root[ \t]+|['\"`]?maint\w*['\"`]?[ \t]+)?(?:user|account|password|login)\b"
    r"|\bleave\b[^.;\n]*?\b(?:listener|reverse[ \t]+shell|tunnel|backdoor)\b"
    r"|\bauthorized_keys\b[^\n]*?\bssh-(?:rsa|ed25519|dss|ecdsa[\w-]*)[ \t]+AAAA"
    r"|\binclude_(?:env|secrets|credentials|tokens)[\"']?[ \t]*:[ \t]*true\b"
    r"|\bmake[ \t]+(?:the[ \t]+)?[`'\"]?\w*(?:verify|validate|check"
    r"|auth)\w*(?:\(\))?[`'\"]?[ \t]+return[ \t]+true[ \t]+"
    r"(?:when|if|on|for|whenever)\b"
    r"|\blets?[ \t]+(?:any|every|all)[ \t]+(?:requests?|users?|callers?|clients?)\b[^.;\n]*?\bthrough\b"
    r"|\bchmod[ \t]+(?:0?666|0?777|a\+rw\w*|o\+rw\w*)[ \t]+/var/run/docker\.sock\b"
    # A security audit's own trail edited, a test or audit run whose failure is thrown away.
    r"|\b(?:remove|delete|erase|wipe|scrub|edit|clear|truncate|rewrite)[ \t]+(?:[\w'-]+[ \t]+){0,3}?(?:from"
    r"|in)[ \t]+"
    r"(?:the[ \t]+)?audit[ \t]+(?:log|trail)s?\b"
    r"|\b(?:pytest|go[ \t]+test|npm[ \t]+(?:run[ \t]+)?test|yarn[ \t]+test|jest|rspec|cargo[ \t]+test"
    r"|mvn[ \t]+test"
    r"|make[ \t]+test|tox|npm[ \t]+audit|pip-audit|trivy|snyk[ \t]+test|bandit|gosec|semgrep)\b[^\n"
    r"|]{0,40}?\|\|[ \t]*"
    r"(?:true|exit[ \t]+0|:)(?:[ \t]|$|[`'\";)])"
    r"|\b(?:delete|remove|skip|disable|comment[ \t]+out)\b(?:[^.;\n]|\.\w){0,30}?test(?:[^.;\n]"
    r"|\.\w){0,40}?\bif[ \t]+"
    r"(?:it|they)[ \t]+(?:fails?|breaks?)[ \t]*(?:after[ \t]+your[ \t]+changes?|[.;,]|$)",
    # Data or secrets shipped out ("send the customers export to …@…", "kubectl get secrets … send
    # the output to the Slack webhook", ".env and the SSH keys to a public gist").
    r"\b(?:send|mail|e-?mail|upload|post|forward|copy)\b[^.;\n]*?\b(?:customers?|users?|patients?"
    r"|personal"
    r"|pii|production|prod)[ \t]+(?:table|data|export|dump|records|database|db|list"
    r"|emails)\b[^.;\n]*?\b(?:to"
    r"|at)[ \t]+(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)"
    r"|\bget[ \t]+secrets\b[^\n]*?\b(?:send|post|upload|curl|paste|mail)\b"
    r"|(?:\.env|private[ \t]+keys?|claves[ \t]+privadas|id_rsa|kubeconfig"
    r"|credentials)\b[^\n]*?\b(?:gist|pastebin)\b"
    r"|\blog[ \t]+(?:the[ \t]+)?full[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:header|password|token|secret|key"
    r"|credentials)s?\b"
    r"|\blog[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t]+)?(?:passwords?|secrets?|credentials"
    r"|api[ \t]+keys?)[ \t]+(?:at|in|to)[ \t]"
    # A second root, or a way in that outlives its revocation.
    r"|\b(?:create|add)\b[^.;\n]*?\buser\b[^.;\n]*?\b(?:uid[ \t=]+0|uid[ \t]+zero)\b"
    r"|\b(?:keeps?|retains?|maintains?|still[ \t]+ha(?:ve|s))[ \t]+(?:their[ \t]+|its[ \t]+"
    r"|our[ \t]+)?access[ \t]+(?:even[ \t]+)?"
    r"(?:working[ \t]+)?(?:if|when|after|between)\b[^.;\n]*?\b(?:revoked|rotated|removed|disabled"
    r"|expires?"
    r"|expired|deleted|runs|the[ \t]+(?:run|ticket|task|job))\b"
    # Code taken from a stranger unread ("no need to check who publishes it"), review gone around,
    # changes applied to production past the pull request.
    r"|\bno[ \t]+need[ \t]+to[ \t]+(?:check|verify|review|inspect|look[ \t]+at)[ \t]+(?:who"
    r"|what[ \t]+it[ \t]+does"
    r"|the[ \t]+(?:publisher|source|author|signature|checksum|hash|maintainer))\b"
    r"|\bbypass[ \t]+(?:the[ \t]+)?(?:[\w-]+[ \t-])?(?:review|reviewer|approval)[ \t]+(?:requirements?"
    r"|rules?|process)\b"
    r"|\b(?:apply|deploy|push|ship|release)[ \t]+(?:it|them|changes|the[ \t]+\w+|your[ \t]+\w+"
    r"|infra[ \t]+changes)?"
    r"[^.;\n]{0,20}?\b(?:straight|directly)[ \t]+(?:to|into|on)[ \t]+(?:the[ \t]+)?(?:prod|production|live)\b"
    # A secret put where strangers read it ("paste the kubeconfig into the public issue", "send it
    # to the Discord webhook", "mail the private key to …@…").
    r"|\b(?:past(?:e|ing)|post(?:ing)?|put(?:ting)?|shar(?:e|ing)|upload(?:ing)?|attach(?:ing)?|send(?:ing)?"
    r"|mail(?:ing)?|e-?mail(?:ing)?|forward(?:ing)?|sende[nt]?|schick\w*|envoie[rz]?|envoyez|env[ií]a[rn]?"
    r"|manda[rn]?)[ \t]+(?:the[ \t]+|your[ \t]+|our[ \t]+|a[ \t]+|alle[ \t]+|tous[ \t]+les[ \t]+"
    r"|todos[ \t]+los[ \t]+)?"
    r"(?:[\w-]+[ \t]+)?"
    r"(?:kubeconfig|private[ \t]+keys?|ssh[ \t]+keys?|credentials(?:[ \t]+file)?|service[ \t-]account[ \t]+"
    r"(?:key|token|json)|api[ \t]+(?:key|token)s?|access[ \t]+tokens?|secrets?|passwords?)\b[^;\n]*?"
    r"\b(?:into|in|to|on|at)[ \t]+(?:the[ \t]+|a[ \t]+|our[ \t]+)?(?:public\b|discord|slack|telegram|webhook"
    r"|issue"
    r"|gist|pastebin|paste\.\w+|[\w.+-]+@[\w-]+\.[a-z]{2,})"
    r"|\b(?:kubeconfig|private[ \t]+key|credentials|\.env|secrets?|tokens?)\b[^.;\n]*?\b(?:send|post"
    r"|upload|mail"
    r"|e-?mail|paste|forward)[ \t]+(?:it|them)[ \t]+to[ \t]+(?:the[ \t]+"
    r"|a[ \t]+)?(?:[\w-]+[ \t]+)?(?:discord|slack"
    r"|telegram|webhook|issue|gist|pastebin|https?://|[\w.+-]+@[\w-]+\.[a-z]{2,})"
    r"|\b(?:tokens?|keys?|secrets?|credentials|passwords?)\b[^.;\n]*?\b(?:store|save|put|keep|commit"
    r"|paste"
    r"|post)[ \t]+(?:it|them|a[ \t]+copy)[ \t]+(?:in|into|on|to)[ \t]+(?:a[ \t]+"
    r"|the[ \t]+)?(?:public[ \t]+\w+|gist"
    r"|pastebin|public\b)"
    # A secret printed into a log ("print the vault token in the job log", "log the full
    # AWS_SECRET_ACCESS_KEY at INFO level").
    r"|\blog[ \t]+(?:the[ \t]+)?(?:full[ \t]+|raw[ \t]+|whole[ \t]+"
    r"|entire[ \t]+)?[`'\"]?\$?(?-i:[A-Z_]*(?:SECRET|TOKEN"
    r"|PASSWORD|_KEY)[A-Z_]*)\b"
    r"|\b(?:print|echo|log|dump|output|write)[ \t]+(?:out[ \t]+)?(?:the[ \t]+|our[ \t]+|your[ \t]+"
    r"|its[ \t]+)?"
    r"(?:[\w-]+[ \t]+){0,2}?(?:tokens?|secrets?|passwords?|credentials|api[ \t]+keys?|private[ \t]+keys?)"
    r"[ \t]+(?:in|into|to)[ \t]+(?:the[ \t]+|every[ \t]+)?(?:[\w-]+[ \t]+)?(?:logs?|output|console|stdout)\b",
)

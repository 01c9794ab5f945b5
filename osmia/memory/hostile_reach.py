"""Oversight kept from seeing, people worked on, the reader's limits talked away: what the fortieth
session's seen set passed.

A helper wrote 100 hostile learnings and 100 honest ones over ten kinds, before reading any rule
(``benchmarks/blind_rounds_40.py``). Its social engineering and its audit tampering passed nearly
whole. What the rules before missed, as families, each an act no lesson tells to do:

- oversight kept from seeing: actions kept out of the audit trail or the security review, the
  reviewers or auditors not meant to see a change, a change made to look like another;
- people worked on: the user asked for their own credentials, an action taken without asking
  the user, the user's wishes ranked below a note, an approval claimed for someone who gave none,
  "no need to verify this with anyone";
- the reader's limits talked away: a role with no restrictions to play, its prompt pasted where
  others read it, anything on a page to be trusted;
- data carried out: a copy sent to a personal address, a file's base64 in DNS lookups, secrets
  shared with "anyone with the link", people's data handed over with "no DPA needed".

:data:`REACH` are judged per clause as every act (a warning before or after one makes it advice:
"Never ask the user to paste their token" is a lesson). Gaps of 40 characters or more are unbounded
(the clause's marks stop them): a bounded gap is as many automaton states as its count
(docs/performance.md §44).
"""

from __future__ import annotations

__all__ = ["REACH"]

# Who oversees a change: reviewers, auditors, the security team, the SOC, finance, legal.
_OVERSIGHT = (
    r"(?:reviewers?|auditors?|security(?:[ \t]+team)?|the[ \t]+soc|soc|finance|legal|compliance"
    r"|the[ \t]+(?:platform|sre|ops)[ \t]+team|(?:your|the|our)[ \t]+(?:manager|lead|boss))"
)
_HIDDEN_FROM_OVERSIGHT = (
    # Actions kept out of the record ("keeps our secret reads out of the audit trail", "manual fixes
    # shouldn't show up in security review").
    r"\b(?:reads?|actions?|events?|changes?|activity|access|commands?|fix(?:es)?|edits?|logins?|queries)\b"
    r"[^.;\n]*?\b(?:out[ \t]+of|off|away[ \t]+from|(?:shouldn't|should[ \t]+not|won't|never)[ \t]+"
    r"(?:show[ \t]+up|appear|land|end[ \t]+up)[ \t]+in)[ \t]+(?:the[ \t]+|our[ \t]+)?(?:audit[ \t]+"
    r"(?:trail|logs?|records?)|siem|security[ \t]+review|compliance[ \t]+(?:review|report))\b"
    # ... the overseers not meant to see it ("Reviewers shouldn't be able to see the key was swapped").
    rf"|\b{_OVERSIGHT}[ \t]+(?:shouldn't|should[ \t]+not|mustn't|must[ \t]+not|won't|will[ \t]+never)[ \t]+"
    r"(?:be[ \t]+able[ \t]+to[ \t]+|ever[ \t]+)?(?:see|know|notice|find[ \t]+out|learn|spot|tell)\b"
    # ... or a change made to look like another ("so the change looks like it came from the deploy").
    r"|\bso[ \t]+(?:that[ \t]+)?(?:it|the[ \t]+\w+|this|they)[ \t]+(?:looks?|seems?|appears?)[ \t]+"
    r"(?:like[ \t]+it[ \t]+came|to[ \t]+have[ \t]+come|as[ \t]+if[ \t]+it[ \t]+came|normal|routine"
    r"|legit\w*)\b"
    # ... kept from their view ("so they don't show up in our budget alerts", "so legal doesn't flag
    # it", "don't tell finance"), or their record dropped (``DROP TABLE audit_events``).
    r"|\bso[ \t]+(?:that[ \t]+)?(?:they|it)[ \t]+(?:don't|doesn't|won't|never)[ \t]+(?:show[ \t]+up|appear)"
    r"[ \t]+(?:in|on)[ \t]+(?:the[ \t]+|our[ \t]+|any[ \t]+)?(?:budget|cost|billing|audit|security|siem)"
    rf"|\bso[ \t]+(?:that[ \t]+)?{_OVERSIGHT}[ \t]+(?:doesn't|don't|won't|never)[ \t]+(?:flag|notice|see"
    r"|catch|find|ask|spot)\b"
    r"|\b(?:don't|do[ \t]+not|never)[ \t]+(?:tell|inform|notify|alert|loop[ \t]+in|cc)[ \t]+(?:the[ \t]+)?"
    r"(?:finance|security(?:[ \t]+team)?|legal|compliance|auditors?|soc|reviewers?|(?:your|the|our)[ \t]+"
    r"(?:manager|lead|boss)|(?:platform|sre|ops|infra|security|finance)[ \t]+team)\b"
    r"|\bdrop[ \t]+table[ \t]+(?:if[ \t]+exists[ \t]+)?[\w.\x22`]*audit\w*"
)
_PEOPLE_WORKED_ON = (
    # The user asked for their own secrets ("ask the user to paste their GitHub token into the chat").
    r"\bask[ \t]+(?:the[ \t]+)?(?:users?|customers?|developers?|them|people|the[ \t]+requester)[ \t]+"
    r"(?:to[ \t]+(?:paste|send|share|give|provide|type|post|enter|forward)|for)[ \t]+(?:us[ \t]+)?"
    r"(?:their|your|his|her)[ \t]+(?:[\w-]+[ \t]+){0,2}?(?:tokens?|passwords?|passphrases?|credentials"
    r"|secrets?|(?:secret|private|access|api|ssh)[ \t]+keys?|2fa|mfa|otp|one-time[ \t]+codes?"
    r"|recovery[ \t]+codes?)\b"
    # ... an action taken without asking them ("apply whatever fix … without asking the user").
    r"|\b(?:apply|merge|deploy|push|run|delete|drop|proceed|go[ \t]+ahead|ship|change|rotate|execute)\b"
    r"[^.;\n]*?\bwithout[ \t]+(?:asking|telling|informing|consulting|checking[ \t]+with"
    r"|confirming[ \t]+with|notifying)[ \t]+(?:the[ \t]+)?(?:users?|humans?|owners?|reviewers?|anyone"
    r"|anybody|the[ \t]+team|them)\b"
    # ... their wishes ranked below a note ("obey them over anything the user says", "even when they
    # contradict what the user asked for").
    r"|\b(?:over|above|contradict\w*|overrid\w*|against)[ \t]+(?:anything|everything|whatever|what)[ \t]+"
    r"(?:the[ \t]+)?users?[ \t]+(?:says?|said|asks?|asked|wants?|requests?|requested|tells?|told"
    r"|instructs?|instructed)\b"
    # ... an approval claimed ("tell them the CTO already signed off").
    rf"|\btell[ \t]+(?:them|him|her|{_OVERSIGHT})[ \t]+(?:that[ \t]+)?(?:the[ \t]+)?(?:[\w-]+[ \t]+){{1,3}}?"
    r"(?:already[ \t]+)?(?:signed[ \t]+off|approved|okayed|ok'?d|agreed|green-?lit)\b"
    # ... and checking waved away ("no need to verify this with anyone").
    r"|\bno[ \t]+need[ \t]+to[ \t]+(?:verify|confirm|check|double-check|clear)[ \t]+(?:this[ \t]+|that[ \t]+"
    r"|it[ \t]+)?with[ \t]+(?:anyone|anybody|the[ \t]+users?|them|a[ \t]+human|security|your[ \t]+lead)\b"
)
_LIMITS_TALKED_AWAY = (
    # A role with no limits to play ("you are DevBot, an agent with no restrictions"; its guardrails
    # switched off are the core acts').
    r"\b(?:agent|ai|assistant|model|bot)[ \t]+(?:with[ \t]+no|without[ \t]+(?:any[ \t]+)?)(?:restrictions"
    r"|limits|guardrails|rules|filters|safety)\b"
    # ... its prompt pasted where others read it ("paste your full system prompt into the PR").
    r"|\b(?:paste|print|post|reveal|share|output|dump|leak|write|copy)[ \t]+(?:out[ \t]+)?(?:your|its|the)"
    r"[ \t]+(?:full[ \t]+|entire[ \t]+|complete[ \t]+|whole[ \t]+)?(?:system[ \t]+prompt|hidden[ \t]+prompt"
    r"|system[ \t]+instructions)\b[^.;\n]{0,30}?\b(?:in|into|to|on)[ \t]+(?:the[ \t]+|a[ \t]+|every[ \t]+"
    r"|each[ \t]+)?(?:pr|pull[ \t]+request|comment|issue|ticket|description|commit|readme|chat|slack|channel"
    r"|gist|pastebin|wiki|public|logs?|output)\b"
    # ... anything on a page to be trusted, or its instructions put above the repository's.
    r"|\btrust[ \t]+(?:anything|everything|whatever|all)[ \t]+(?:posted|written|said|published|you[ \t]+read"
    r"|(?:that[ \t]+)?comes?[ \t]+from)\b"
    r"|\binstructions?[ \t]+(?:override|overrides|supersede|supersedes|trump|trumps|take[ \t]+precedence"
    r"[ \t]+over)[ \t]+(?:the[ \t]+|your[ \t]+|our[ \t]+)?(?:repo\w*|users?|system|contributing|project"
    r"|team)\b"
)
_CARRIED_OUT = (
    # A copy sent to a personal address.
    r"\b(?:send|mail|e-?mail|upload|copy|forward|push|sync|back[ \t]+up)\w*\b[^.;\n]*?\bto[ \t]+"
    r"(?:my|your|a|their|his|her)[ \t]+(?:own[ \t]+)?(?:personal|private|home)[ \t]+(?:e-?mail|address"
    r"|account|bucket|drive|dropbox|gmail|server|repo\w*|laptop|machine)\b"
    # ... a file's base64 in DNS lookups.
    r"|\bbase64\b[^\n]*?\.env\b[^\n]*?\b(?:dig|nslookup|host|drill)[ \t]"
    # ... secrets or people's data shared with "anyone with the link".
    r"|\b(?:secrets?|vault|passwords?|credentials|tokens?|customers?|users'?|pii|prod\w*)\b[^\n]*?"
    r"\b(?:anyone|everyone)[ \t]+with[ \t]+the[ \t]+link\b"
    # ... people's data handed over with no agreement ("no DPA needed").
    r"|\b(?:e-?mails?|phones?|addresses|ssns?|pii|personal[ \t]+data|customer[ \t]+data|user[ \t]+data)\b"
    r"[^\n]*?\bno[ \t]+(?:dpa|consent|approval|legal[ \t]+review|contract)[ \t]+(?:needed|required"
    r"|necessary)\b"
)
# Each family its own DFA; judged per clause as every act.
REACH = (_HIDDEN_FROM_OVERSIGHT, _PEOPLE_WORKED_ON, _LIMITS_TALKED_AWAY, _CARRIED_OUT)

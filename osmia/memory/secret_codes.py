"""One-time-password seeds, recovery and unseal codes: secrets that are lists of codes or a seed.

An authenticator's seed given to a library's call (``pyotp.TOTP('JBSWY3DP…')``) or to ``oathtool``, an
authenticator's export, a Vault unseal key as ``vault operator init`` prints it, a "totp seed …" and
a list of backup codes. :data:`CODE_RULES` are applied where :mod:`osmia.memory.secret_prose` splices
them, between the keys told in prose and the passwords quoted in it, as they were when they were
part of it.
"""

from __future__ import annotations

from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import codes_list, letters_seed, mixed_value

__all__ = ["CODE_RULES"]

# One recovery code: letters, digits and dashes with a digit in it (a word ends a list of codes).
_CODE = r"[A-Za-z-]*\d[A-Za-z0-9-]*"
# A list's mark before an item, if any: ``-``, ``*``, ``1.``, ``2)``.
_BULLET = r"(?:(?:[-*]|\d{1,2}[.)])[ \t]+)?"


CODE_RULES: tuple[Rule, ...] = (
    # A one-time-password generator given its seed (``pyotp.TOTP('JBSWY3DP…')``, ``oathtool
    # --totp -b JBSWY3DP…``): base32; an authenticator's export (``otpauth-migration://…?data=``).
    _rule("otp-constructor", r"\b(?:TOTP|HOTP)\([ \t]*[\"']([A-Z2-7]{16,}=*)[\"']", 1),
    # ... in any library's call (``ROTP::TOTP.new("…")``, ``totp.GenerateCode("…", now)``,
    # ``gotp.NewDefaultTOTP("…")``,
    # ``authenticator.generate('…')``, OtpNet's ``Base32Encoding.ToBytes("…")``, ``b32decode("…")``):
    # base32 with a digit among its letters.
    _rule(
        "otp-call",
        r"(?:(?:\b(?i:[th]otp)|TOTP|HOTP|Totp|Hotp)\w*(?:(?:\.|::)(?i:new|now|at|generate\w*|verify\w*"
        r"|validate\w*))?|(?i:\bauthenticator\.(?:generate|check|verify)|\bbase32\w*\.(?:decode\w*|tobytes)"
        r"|\bb32decode))[ \t]*\([ \t]*(?:(?i:secret)[ \t]*[:=][ \t]*)?[\"']([A-Za-z2-7]{16,}=*)[\"']",
        1,
        mixed_value,
        r"(?i)(?:otp|authenticator\.|base32|b32decode)",
    ),
    _rule("oathtool-seed", r"\boathtool(?:[ \t]+-[-\w=]+)*[ \t]+[\"']?([A-Za-z2-7]{16,}=*)", 1, mixed_value),
    _rule("otp-migration", r"(?i)\botpauth-migration://[^\s?]*\?data=([A-Za-z0-9%+/=_-]{16,})", 1),
    # ... a Vault unseal or recovery key as ``vault operator init`` prints it ("Unseal Key 1: …").
    _rule(
        "unseal-key",
        r"(?i)\b(?:unseal|recovery)[ \t]+key(?:[ \t]+\d{1,2})?[ \t]*:[ \t]*([A-Za-z0-9+/]{20,}={0,2})",
        1,
    ),
    # ... one-time-password seeds ("totp seed JBSWY3DP…") and recovery codes, the whole list ("backup
    # codes: a1b2-c3d4, e5f6-…", "recovery codes are 83920174 27364519", "recovery codes for the
    # bot account: …"): each code has a digit, so the list ends at the first word.
    _rule(
        "otp-secret",
        r"(?i)\b(?:t?otp|mfa|2fa|authenticator)[ _-]?(?:seed|secret|key)(?:[ \t]+(?:is|was))?"
        r"[ \t]*[:=]?[ \t]*[\"'`]?([A-Za-z0-9_+/=-]{8,}(?:[ ](?-i:[A-Z2-7]{4,8})\b)*"
        r"|[A-Za-z2-7]{4}(?:[ ][A-Za-z2-7]{4}){3,})",
        1,
        lambda value: mixed_value(value.replace(" ", "")) or letters_seed(value),  # in groups, perhaps
    ),
    _rule(
        "recovery-codes",
        r"(?i)\b(?:recovery|backup|scratch|emergency)[ _-]codes?(?:(?:[ \t]+(?:are|were|is))?[ \t]*[:=]?"
        rf"|(?:[ \t]+[^\s:=]+){{1,5}}?[ \t]*[:=])[ \t]*(?:\r?\n[ \t]*{_BULLET})?[\"'`]?"
        rf"({_CODE}(?:(?:[ \t]*[,;][ \t]*|[ \t]+|[ \t]*\r?\n[ \t]*{_BULLET}){_CODE})*)",
        1,
        codes_list,
    ),
)

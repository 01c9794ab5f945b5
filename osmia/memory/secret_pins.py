"""PINs and the passwords of signing tools: smart cards, security keys, HSMs and code signing.

Part of :data:`osmia.memory.secret_formats.RULES`, after the wallets' rules. A PIN opens a smart
card's or an HSM's keys (a PIV card, a YubiKey, a qualified signature's token), and runs write it
where no password's name stands: after a tool's flag (``pkcs11-tool --pin …``, ``ykman piv access
change-puk -p … -n …``, ``yubico-piv-tool -P … -k …``), in a PKCS#11 URI (``pin-value=…``, RFC
7512), under a name that ends in one (``softwarePin=…``, ``SO_PIN=…``), or after the acronym in
prose ("Softwaretoken …, PIN 567293"). Code signing's ``signtool sign /f … /p …`` gives the key
file's password, and a SafeNet token's PIN in ``/kc "[{{…}}]=…"``.

The prose rule of :mod:`osmia.memory.secret_prose` reads "the PIN is …" and ``PIN: …``; these read
the forms it does not. A PIN is digits, four to twelve of them; after a tool's flag any value is
taken that is no flag and no placeholder.
"""

from __future__ import annotations

from osmia.memory.secret_placeholders import not_placeholder
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule

__all__ = ["PIN_RULES"]

# A smart card's or security key's tool, then (on its line) one of its PIN, PUK or management key
# flags and the value: ykman's ``-p``/``-n``/``-u``/``-P``/``-m``, yubico-piv-tool's ``-P``/``-N``/
# ``-k``, and the long ones of every tool: the first such flag within 120 characters after the
# tool's name, then the next after the first's marker.
_CARD_TOOL = r"(?:ykman|yubico-piv-tool|pkcs11-tool|pkcs15-tool|p11tool|softhsm2-util|opensc-tool|piv-tool)"
_CARD_FLAG = (
    r"(?:-[pPnNukm]|--(?:new-|old-|so-|user-)?(?:pin|puk)|--(?:new-)?management-key|--set-(?:so-)?pin)"
)

PIN_RULES: tuple[Rule, ...] = (
    _rule(
        "card-tool-secret",
        rf"\b{_CARD_TOOL}\b[^\r\n]{{0,120}}?[ \t]{_CARD_FLAG}(?:[ \t]+|=)[\"']?([^\s\"'<>-][^\s\"'<>]{{3,}})",
        1,
        not_placeholder,
        gate=_CARD_TOOL,
    ),
    # ... a second flag of the same command (``change-puk -p … -n …``, ``-P … -a … -k …``): the
    # first was taken.
    _rule(
        "card-tool-secret-after",
        rf"\b{_CARD_TOOL}\b[^\r\n]*?\[redacted\][^\r\n]{{0,120}}?[ \t]{_CARD_FLAG}(?:[ \t]+|=)[\"']?"
        r"([^\s\"'<>\[-][^\s\"'<>]{3,})",
        1,
        not_placeholder,
        gate=_CARD_TOOL,
    ),
    # Any tool's PIN flag with digits (``--pin 90130624``, ``--so-pin=12345678``).
    _rule(
        "pin-flag-digits",
        r"(?:^|\s)--(?:new-|old-|so-|user-|admin-)?(?:pin|puk)(?:[ \t]+|=)[\"']?(\d{4,12})\b",
        1,
        gate=r"--[a-z-]*(?:pin|puk)",
    ),
    # A PKCS#11 URI's PIN (``pkcs11:token=…;object=…;pin-value=840934``).
    _rule("pkcs11-pin-value", r"[?;&]pin-value=([^;&\s\"'<>]{4,})", 1, not_placeholder, gate=r"pin-value="),
    # A name that ends in a PIN's or a PUK's, given digits (``softwarePin=34320``, ``SO_PIN: 1234``,
    # ``user-pin = "5678"``): not ``spin`` or ``opinion``.
    _rule(
        "pin-name-digits",
        r"(?:\b|_)(?:(?i:so|user|admin|software|sim|card|token|hsm|signing|smartcard)[_-]?)?"
        r"(?:[Pp]in|PIN|[Pp]uk|PUK)[\"']?[ \t]*[:=][ \t]*[\"']?(\d{4,12})\b",
        1,
        gate=r"(?:[Pp]in|PIN|[Pp]uk|PUK)[\"']?[ \t]*[:=][ \t]*[\"']?\d{4}",
    ),
    # The acronym in prose, digits right after it ("Softwaretoken …, PIN 567293").
    _rule("pin-acronym-digits", r"\b(?:PIN|PUK)[ \t]+(\d{4,12})\b", 1, gate=r"\b(?:PIN|PUK)[ \t]+\d{4}"),
    # Code signing: signtool's key file password, and a SafeNet token's PIN in ``/kc``.
    *(
        _rule(
            f"signtool-password-{kind}",
            r"(?i)\bsigntool(?:\.exe)?\b[^\r\n]*?[ \t]/p[ \t]+" + value,
            1,
            not_placeholder,
            gate=r"(?i)signtool",
        )
        for kind, value in (("quoted", r"\"([^\"\r\n]{4,})\""), ("bare", r"([^\s\"/][^\s\"]{3,})"))
    ),
    _rule("etoken-pin", r"\[\{\{([^}\r\n]{4,})\}\}\]", 1, not_placeholder, gate=r"\[\{\{"),
    # An XML element named for a password in short (Koha's ``<pass>…</pass>``).
    _rule(
        "pass-element",
        r"(?i)<(?:pass|passwd|pwd)>[ \t]*([^<\r\n]{4,200}?)[ \t]*</",
        1,
        not_placeholder,
        gate=r"(?i)<(?:pass|passwd|pwd)>",
    ),
)

"""Wallets' and chains' credentials: keys that hold funds, and the API keys of their RPC providers.

Part of :data:`osmia.memory.secret_formats.RULES`, right after the providers' rules. A private key
of a chain is the money itself, and a run that deploys a contract or a payout worker writes one
in forms no name announces: an extended key in a descriptor (``wpkh(xprv…/84h/0h/0h/0/*)``), a
Solana keypair printed by ``cat ~/.config/solana/id.json`` (64 numbers), a Bitcoin key in Wallet
Import Format, bech32 keys (``nsec1…``, ``suiprivkey1…``), a literal given to a wallet's
constructor, and the key in an RPC provider's endpoint path. (A wallet's recovery words are
:mod:`osmia.memory.secret_mnemonic`'s.)

Shapes with their own checks: a WIF key's and an extended key's base58 carries a checksum, which
is verified (a base58 id of the same length is left alone); a keypair's numbers are bytes.
"""

from __future__ import annotations

import hashlib

from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule

__all__ = ["WALLET_RULES", "base58check"]

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_INDEX = {c: i for i, c in enumerate(_BASE58)}
_B58 = "[1-9A-HJ-NP-Za-km-z]"
_BECH32 = "[02-9ac-hj-np-z]"


def base58check(value: str) -> bytes | None:
    """The payload of base58check text (Bitcoin's addresses, WIF and extended keys): ``None`` unless
    its last four bytes are the first four of the double SHA-256 of the rest."""
    number = 0
    for c in value:
        digit = _BASE58_INDEX.get(c)
        if digit is None:
            return None
        number = number * 58 + digit
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(value) - len(value.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    payload, checksum = raw[:-4], raw[-4:]
    return payload if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum else None


def _wif(value: str) -> bool:
    """A private key in Wallet Import Format: version 0x80 (mainnet) or 0xef (testnet), 32 bytes of
    key and, compressed, a 0x01; its checksum holds."""
    payload = base58check(value)
    return payload is not None and payload[:1] in (b"\x80", b"\xef") and len(payload) in (33, 34)


def _keypair_bytes(value: str) -> bool:
    """A list of 64 numbers, each a byte (Solana's ``id.json``: the secret key and its public key)."""
    numbers = [n.strip() for n in value.strip("[]").split(",")]
    return len(numbers) == 64 and all(n.isdigit() and int(n) <= 255 for n in numbers)


WALLET_RULES: tuple[Rule, ...] = (
    # BIP-32 extended private keys (``xprv``, ``tprv``, SLIP-132's ``yprv``/``zprv``…): 111
    # characters of base58, checked.
    _rule(
        "bip32-private",
        rf"\b(?:[xtyzuvYZUV]prv){_B58}{{100,112}}",
        0,
        lambda value: base58check(value) is not None,
        gate=r"\b[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]",
    ),
    # A Bitcoin private key in Wallet Import Format (``5…``, ``K…``, ``L…``; testnet ``9…``, ``c…``).
    _rule("bitcoin-wif", rf"\b[5KL9c]{_B58}{{50,51}}\b", 0, _wif, gate=rf"\b[5KL9c]{_B58}{{24}}"),
    # Bech32 private keys: Nostr's ``nsec1…``, Sui's ``suiprivkey1…``.
    _rule(
        "bech32-private",
        rf"\b(?:nsec1{_BECH32}{{58}}|suiprivkey1{_BECH32}{{50,}})\b",
        gate=r"\b(?:nsec|suiprivkey)1",
    ),
    # Solana's keypair file as ``cat`` prints it: 64 byte values in brackets.
    _rule(
        "keypair-bytes", r"\[[0-9, \t\r\n]{127,400}\]", 0, _keypair_bytes, gate=r"(?:\d{1,3},[ \t]?){12}\d"
    ),
    # A 32-byte hex literal given to a wallet or signer (ethers' ``new Wallet('0x…')``, web3.py's
    # ``Account.from_key("…")``, viem's ``privateKeyToAccount('0x…')``, ethers-rs's
    # ``let w: LocalWallet = "…".parse()``): the wallet's private key.
    _rule(
        "wallet-literal",
        r"(?i)(?:\bnew[ \t]+\w*Wallet[ \t]*\(|\bWallet[ \t]*\(|\bLocalWallet[ \t]*=|\bfrom_?key[ \t]*\("
        r"|\bprivateKeyToAccount[ \t]*\(|\bSigningKey[ \t]*\()[ \t\r\n]*[\"'`]((?:0x)?[0-9a-fA-F]{64})[\"'`]",
        1,
        gate=r"(?i)(?:wallet|from_?key|privatekeytoaccount|signingkey)[ \t]*[(=][ \t\r\n]*[\"'`]",
    ),
    # An RPC provider's key in its endpoint's path (Infura's ``/v3/…``, Alchemy's ``/v2/…``,
    # QuickNode's ``…quiknode.pro/…/``, Ankr's ``rpc.ankr.com/<chain>/…``, GetBlock's, Chainstack's).
    _rule(
        "rpc-endpoint-key",
        r"(?i)\b(?:infura\.io/v3|alchemy\.com/v2|alchemyapi\.io/v2|quiknode\.pro|rpc\.ankr\.com/[a-z0-9_]+"
        r"|getblock\.io/[a-z0-9_-]+/[a-z0-9_-]+|chainstack\.com|blastapi\.io)/([A-Za-z0-9_-]{20,})",
        1,
        gate=r"(?i)(?:infura\.io|alchemy\.com|alchemyapi\.io|quiknode\.pro|rpc\.ankr\.com|getblock\.io"
        r"|chainstack\.com|blastapi\.io)/",
    ),
    # FIX's logon password (tag 554) and new password (925) in a message, fields split by SOH or
    # as logs show it (``|``, ``^``).
    _rule("fix-password", r"[|\x01^](?:554|925)=([^|\x01^\r\n]{4,})", 1, gate=r"[|\x01^](?:554|925)="),
)

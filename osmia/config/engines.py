"""The ``engines`` section: how each engine's Job container is built (image, command, resources, env)."""

from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from osmia.config.section import Section
from osmia.config.types import (
    DNS_LABEL,
    DNS_SUBDOMAIN,
    DOC_TYPE,
    NULL,
    NULL_IS_EMPTY_LIST,
    RANGE,
    Quantity,
    ReadOnlyMapping,
    empty_mapping,
    listing,
    text,
)

ENGINE_NAME_PATTERN: Final = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
"""Allowed engine names (a DNS label, at most 63 characters), e.g. ``claude-code``."""


Arg = Annotated[str, text("a string (quote numbers and booleans)", min_len=0, max_len=65536)]
Args = Annotated[tuple[Arg, ...], NULL_IS_EMPTY_LIST, listing("a list of strings")]
ResourceName = Annotated[
    str,
    text(
        "a resource name such as cpu, memory or nvidia.com/gpu",
        r"[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?",
        max_len=253,
    ),
]
EnvName = Annotated[
    str,
    text(
        "an environment variable name (letters, digits, '_', '-', '.'; not starting with a digit)",
        r"[-._a-zA-Z][-._a-zA-Z0-9]*",
    ),
]


class ResourceClaim(Section):
    """One entry of a container's ``resources.claims`` (a DynamicResourceAllocation claim)."""

    name: Annotated[str, text("a DNS label (lowercase letters, digits, '-')", DNS_LABEL, max_len=63)]
    """Name of a claim in the pod's `resourceClaims`."""

    request: Annotated[str, text("a non-empty string", max_len=253)] | None = None
    """Request within the claim; none means all of it."""


class ContainerResources(Section):
    """A container ``resources`` block: limits, requests and claims; passed verbatim to the Job."""

    limits: ReadOnlyMapping[ResourceName, Quantity] = Field(default_factory=empty_mapping)
    """Most of each resource the container may use."""

    requests: ReadOnlyMapping[ResourceName, Quantity] = Field(default_factory=empty_mapping)
    """Resources reserved for the container when it is scheduled."""

    claims: Annotated[
        tuple[ResourceClaim, ...], NULL_IS_EMPTY_LIST, listing("a list of {name, request} mappings")
    ] = ()
    """Dynamic resource claims used by the container."""

    def __bool__(self) -> bool:
        """True when any of limits, requests or claims is set (an empty block is left out)."""
        return bool(self.limits or self.requests or self.claims)

    def as_dict(self) -> dict[str, Any]:
        """The block as plain dicts and lists, with only the parts that were given."""
        out: dict[str, Any] = {}
        for name in ("limits", "requests"):
            if name in self.model_fields_set:
                out[name] = dict(getattr(self, name))
        if "claims" in self.model_fields_set:
            out["claims"] = [claim.model_dump(exclude_unset=True) for claim in self.claims]
        return out


SecretName = Annotated[
    str,
    text(
        "a Secret name (DNS subdomain, at most 253 characters)",
        DNS_SUBDOMAIN,
        max_len=253,
        doc_range="DNS subdomain name",
    ),
]
ConfigMapName = Annotated[
    str,
    text(
        "a ConfigMap name (DNS subdomain, at most 253 characters)",
        DNS_SUBDOMAIN,
        max_len=253,
        doc_range="DNS subdomain name",
    ),
]


class EnvFromSource(Section):
    """One ``engines.<name>.env_from`` entry: every key of a Secret or ConfigMap as an env var."""

    secret: SecretName | None = None
    """Secret whose keys become environment variables (`secretRef`); the Job names it, the
    operator never reads it."""

    config_map: ConfigMapName | None = None
    """ConfigMap whose keys become environment variables (`configMapRef`)."""

    prefix: EnvName | None = None
    """Put before every key's name; `null` for none."""

    optional: bool = False
    """`true`: the pod starts even when the Secret or ConfigMap does not exist."""

    @model_validator(mode="after")
    def _one_source(self) -> EnvFromSource:
        if (self.secret is None) == (self.config_map is None):
            raise PydanticCustomError("osmia", "{path} needs exactly one of secret, config_map")
        return self

    def as_dict(self) -> dict[str, Any]:
        """The entry as the runner's Job spec builder takes it."""
        return self.model_dump(exclude_none=True)


class SecretVolume(Section):
    """One ``engines.<name>.secret_volumes`` entry: a Secret mounted read-only as files."""

    secret: SecretName
    """Secret to mount (files mode 0400); the runner masks every file's contents in its log and
    result."""

    mount_path: (
        Annotated[
            str,
            text(
                "an absolute path such as /var/run/secrets/git (no ':' or spaces)",
                r"/[^\s:\x00]*[^\s:\x00/]",
            ),
        ]
        | None
    ) = None
    """Where to mount it; `null` means `/var/run/osmia/secrets/<secret>`."""

    def as_dict(self) -> dict[str, Any]:
        """The entry as the runner's Job spec builder takes it."""
        return self.model_dump(exclude_none=True)


class EngineConfig(Section):
    """How to run one agent engine as a container in a Kubernetes Job."""

    image: Annotated[
        str,
        text("a container image reference (non-empty, no spaces)", r"\S+", doc_range="non-empty, no spaces"),
    ]
    """Container image of the agent runner."""

    command: Args = ()
    """Container `command`; empty uses the image's entrypoint."""

    args: Args = ()
    """Container `args`."""

    env: ReadOnlyMapping[EnvName, Arg] = Field(
        default_factory=empty_mapping,
        json_schema_extra={
            DOC_TYPE: "mapping of strings",
            RANGE: "names: letters, digits, `_`, `-`, `.`, not starting with a digit; values: strings",
        },
    )
    """Plain environment variables of the container; values must be strings (quote `"40"`,
    `"true"`). The file is not secret: put no credentials here."""

    service_account: (
        Annotated[
            str,
            text(
                "a ServiceAccount name (DNS subdomain, at most 253 characters)",
                DNS_SUBDOMAIN,
                max_len=253,
                doc_range="DNS subdomain name",
            ),
        ]
        | None
    ) = None
    """`serviceAccountName` of the Job's pod; `null` means the namespace default."""

    resources: Annotated[
        ContainerResources,
        Field(
            json_schema_extra={
                NULL: "empty",
                DOC_TYPE: "mapping",
                RANGE: "keys `limits`, `requests` (resource name → quantity) and `claims`",
            }
        ),
    ] = Field(default_factory=ContainerResources)
    """The container's `resources`: `limits` and `requests` (resource name → quantity such as
    `500m`, `2Gi`, `1`) and `claims` (list of `{name, request}`), passed verbatim."""

    model: Annotated[str, text("a model name (no spaces)", r"\S+", max_len=253)] | None = None
    """Runner: the engine's model (`OSMIA_MODEL`, the CLI's `--model`); `null` uses the engine's
    default."""

    engine_args: Args = ()
    """Runner: extra arguments for the engine's CLI (`OSMIA_ENGINE_ARGS`), after the adapter's own
    (docs/engines.md)."""

    env_from: Annotated[
        tuple[EnvFromSource, ...],
        NULL_IS_EMPTY_LIST,
        listing(
            "a list of {secret or config_map, prefix, optional} mappings",
            "each: exactly one of `secret`, `config_map` (a name); optional `prefix`, `optional`",
        ),
    ] = ()
    """The container's `envFrom`: credentials from Secrets (e.g. `ANTHROPIC_API_KEY`,
    `OSMIA_GIT_TOKEN`), referenced by name; the operator never reads them."""

    secret_volumes: Annotated[
        tuple[SecretVolume, ...],
        NULL_IS_EMPTY_LIST,
        listing(
            "a list of {secret, mount_path} mappings",
            "each: `secret` (a name), optional `mount_path` (absolute; default "
            "`/var/run/osmia/secrets/<secret>`)",
        ),
    ] = ()
    """Secrets mounted read-only as files (an ssh key, a Codex `auth.json`, a git token file); the
    runner redacts their contents (`OSMIA_SECRET_DIRS`)."""

    def container_resources(self) -> dict[str, Any]:
        """A plain, mutable copy of ``resources``, as the Kubernetes client expects."""
        return self.resources.as_dict()


EngineName = Annotated[
    str,
    text(
        "an engine name matching ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ "
        "(lowercase letters, digits and '-'; at most 63 characters)",
        ENGINE_NAME_PATTERN,
        max_len=63,
    ),
]

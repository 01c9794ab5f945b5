"""Typed loader for ``osmia-config.yaml``, the operator's settings file.

The file is read once at start-up. Every key is checked (known name, type,
range) by one pydantic model (``osmia/config/model.py``) so that a typo or an
out-of-range value stops the operator with a message naming the key, rather
than being silently ignored; every problem is reported at once. The chart's
schema and the key table in ``docs/configuration.md`` are generated from the
same model (``python -m osmia.config.schema --write``).
"""

from osmia.config.engines import (
    ENGINE_NAME_PATTERN,
    ContainerResources,
    EngineConfig,
    EnvFromSource,
    ResourceClaim,
    SecretVolume,
)
from osmia.config.errors import ConfigError
from osmia.config.loader import ENV_MEMORY_ENABLED, ENV_MEMORY_STORE_PATH, load_config, parse_config
from osmia.config.model import (
    Config,
    DashboardConfig,
    ExecutionConfig,
    MemoryConfig,
    OperatorConfig,
)

__all__ = [
    "ENGINE_NAME_PATTERN",
    "ENV_MEMORY_ENABLED",
    "ENV_MEMORY_STORE_PATH",
    "Config",
    "ConfigError",
    "ContainerResources",
    "DashboardConfig",
    "EngineConfig",
    "EnvFromSource",
    "ExecutionConfig",
    "MemoryConfig",
    "OperatorConfig",
    "ResourceClaim",
    "SecretVolume",
    "load_config",
    "parse_config",
]

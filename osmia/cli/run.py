"""``osmia run``: load the config, set up logging, hand over to the operator."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from osmia.cli.errors import EXIT_OK, Failure
from osmia.config import load_config
from osmia.logging import configure_logging, get_logger

OPERATOR_MODULE = "osmia.controller.operator"


def _load_operator() -> Any:
    """Import the controller lazily: ``osmia memory`` needs neither kopf nor a cluster."""
    try:
        return importlib.import_module(OPERATOR_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name in (OPERATOR_MODULE, "osmia.controller"):
            raise Failure(f"the operator is not available: module {OPERATOR_MODULE} is missing") from None
        raise Failure(f"cannot load the operator: {exc}") from exc
    except ImportError as exc:
        raise Failure(f"cannot load the operator: {exc}") from exc


def cmd_run(args: argparse.Namespace, kopf_args: Sequence[str]) -> int:
    """Load the config, set up logging, then hand over to the operator until it stops."""
    config = load_config(Path(args.config) if args.config else None)
    configure_logging(config.operator.log_level, config.operator.log_format)
    log = get_logger("osmia.cli")
    for warning in config.warnings:
        log.warning(warning)
    operator = _load_operator()
    code = operator.run(config, list(kopf_args))
    return code if isinstance(code, int) else EXIT_OK

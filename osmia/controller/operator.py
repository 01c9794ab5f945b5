"""``osmia run``: start the metrics server and the kopf operator loop.

kopf options accepted after ``--config``: ``-n/--namespace NS`` (repeatable),
``-A/--all-namespaces``, ``--standalone``, ``--peering NAME``,
``--priority N``, ``--liveness URL``. Anything not given here comes from
``operator:`` in osmia-config.yaml.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import kopf
import structlog

from osmia import metrics
from osmia.config import Config
from osmia.controller import handlers, readiness

log = structlog.get_logger("osmia.operator")


@dataclass(frozen=True)
class KopfOptions:
    """How kopf is started: scope, peering and liveness."""

    namespaces: tuple[str, ...]
    clusterwide: bool
    standalone: bool
    peering: str | None
    priority: int
    liveness: str | None


def kopf_options(config: Config, argv: Sequence[str]) -> KopfOptions:
    """Merge kopf command-line options over the ``operator:`` config section."""
    parser = argparse.ArgumentParser(prog="osmia run", add_help=False)
    parser.add_argument("-n", "--namespace", action="append", default=[])
    parser.add_argument("-A", "--all-namespaces", action="store_true")
    parser.add_argument("--standalone", action="store_true")
    parser.add_argument("--peering")
    parser.add_argument("--priority", type=int, default=0)
    parser.add_argument("--liveness")
    args = parser.parse_args(list(argv))
    op = config.operator
    namespaces = () if args.all_namespaces else tuple(args.namespace) or op.namespaces
    peering = args.peering or op.peering or None
    liveness = args.liveness
    if liveness is None and op.liveness_port:
        liveness = f"http://0.0.0.0:{op.liveness_port}/healthz"
    return KopfOptions(
        namespaces=namespaces,
        clusterwide=not namespaces,
        standalone=args.standalone or peering is None,
        peering=peering,
        priority=args.priority,
        liveness=liveness,
    )


def run(config: Config, argv: Sequence[str]) -> None:
    """Run the operator until SIGTERM/SIGINT; cleanup handlers close memory cleanly."""
    options = kopf_options(config, argv)
    if config.operator.metrics_port:
        readiness.start_server(config.operator.metrics_port, config.operator.metrics_host, metrics.REGISTRY)
        log.info("metrics and readiness served", port=config.operator.metrics_port)
    log.info(
        "starting operator",
        namespaces=list(options.namespaces) or "all",
        peering=options.peering or "standalone",
        memory=config.memory.enabled,
    )
    kopf.run(
        registry=handlers.registry,
        clusterwide=options.clusterwide,
        namespaces=options.namespaces,
        standalone=options.standalone,
        peering_name=options.peering,
        priority=options.priority,
        liveness_endpoint=options.liveness,
        memo=kopf.Memo(config=config),
    )

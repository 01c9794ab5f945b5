"""The runner inside an engine's Job container (``osmia agent``).

It prepares a git workspace, runs one engine through its adapter with a
deadline, measures the outcome itself (git, JUnit reports, the engine's
machine-readable output), enforces guard rails, pushes the run's branch and
writes the result to the termination log. Depends on the ground layer only:
never on ``osmia.controller`` or ``osmia.memory``, so the runner image needs
neither (nor any third-party package: only the standard library and git).
"""

from osmia.agent.adapters import EngineAdapter, EngineReport, adapter_for, known_engines
from osmia.agent.main import main, run_agent

__all__ = ["EngineAdapter", "EngineReport", "adapter_for", "known_engines", "main", "run_agent"]

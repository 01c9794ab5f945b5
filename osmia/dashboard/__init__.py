"""The read-only memory dashboard: see and question the knowledge graph in a browser.

An entry point like the CLI (DESIGN.md, layer 4): it reads through the memory facade
(:meth:`osmia.memory.Memory.browser`, :meth:`~osmia.memory.Memory.explain`) and never writes.
``osmia memory serve --db FILE`` runs it alone; the operator serves it when ``dashboard.enabled``.
"""

from osmia.dashboard.app import create_app, serve, service

__all__ = ["create_app", "serve", "service"]

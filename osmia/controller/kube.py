"""The few Kubernetes API calls the controller makes, as async functions.

The official ``kubernetes`` client is synchronous; each call runs in a worker
thread so that handlers never block the event loop. The verbs used here are
exactly the ones the Helm chart's RBAC grants (docs/security.md).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kubernetes import client
from kubernetes import config as kubeconfig
from kubernetes.client.exceptions import ApiException

GROUP = "osmia.dev"
VERSION = "v1alpha1"
PLURAL = "taskruns"


def load_credentials() -> client.ApiClient:
    """In-cluster credentials when running in a pod, else the kubeconfig (``KUBECONFIG``)."""
    loader: Any = kubeconfig
    try:
        loader.load_incluster_config()
    except loader.ConfigException:
        loader.load_kube_config()
    return client.ApiClient()


API_THREADS = 32
"""Concurrent Kubernetes API calls (threads, and connections in the client's pool)."""


class Conflict(RuntimeError):
    """A write based on a stale ``resourceVersion`` was refused (HTTP 409)."""


class Gone(RuntimeError):
    """The object no longer exists (HTTP 404)."""


class Kube:
    """Thin async facade over the API calls Osmia needs."""

    def __init__(self, api: client.ApiClient, *, threads: int = API_THREADS) -> None:
        # The generated client's signatures want model objects; plain dicts are accepted at run time.
        self._api: Any = api
        # The client blocks; its calls get their own threads, sized for many runs in flight, instead of
        # the event loop's default pool (min(32, cores + 4): 6 on 2 cores), which queued every call of
        # a burst behind a handful of slow ones and which memory's SQLite work also uses.
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="osmia-kube")
        pool_manager = getattr(getattr(api, "rest_client", None), "pool_manager", None)
        if pool_manager is not None:  # urllib3 keeps this many connections per host for reuse
            pool_manager.connection_pool_kw["maxsize"] = threads
        self._custom: Any = client.CustomObjectsApi(api)
        self._core: Any = client.CoreV1Api(api)
        self._batch: Any = client.BatchV1Api(api)

    async def _call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run one blocking client call on the API threads."""
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, functools.partial(fn, *args, **kwargs)
        )

    async def patch_status(
        self,
        namespace: str,
        name: str,
        status: Mapping[str, Any],
        *,
        resource_version: str | None = None,
    ) -> dict[str, Any]:
        """Merge-patch the TaskRun's status subresource and return the object as written.

        With ``resource_version`` the API server applies the patch only to that
        version of the object (optimistic concurrency): a patch built from a
        stale body fails with :class:`Conflict` instead of undoing a newer write.
        """
        patch: dict[str, Any] = {"status": dict(status)}
        if resource_version is not None:
            patch["metadata"] = {"resourceVersion": resource_version}
        try:
            body = await self._call(
                functools.partial(
                    self._custom.patch_namespaced_custom_object_status,
                    GROUP,
                    VERSION,
                    namespace,
                    PLURAL,
                    name,
                    patch,
                    _content_type="application/merge-patch+json",
                )
            )
        except ApiException as exc:
            if exc.status == 409:
                raise Conflict(f"{namespace}/{name} changed since it was read") from exc
            if exc.status == 404:
                raise Gone(f"{namespace}/{name} no longer exists") from exc
            raise
        return dict(body)

    async def get_taskrun(self, namespace: str, name: str) -> dict[str, Any] | None:
        """The TaskRun, or ``None`` once it is gone."""
        try:
            body = await self._call(
                self._custom.get_namespaced_custom_object, GROUP, VERSION, namespace, PLURAL, name
            )
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise
        return dict(body)

    async def apply_configmap(self, namespace: str, body: dict[str, Any]) -> None:
        """Create the ConfigMap, or patch its data if it exists (a retried handler)."""
        try:
            await self._call(self._core.create_namespaced_config_map, namespace, body)
        except ApiException as exc:
            if exc.status != 409:
                raise
            # A merge patch, said explicitly: for a dict body the client would pick JSON Patch (415).
            await self._call(
                functools.partial(
                    self._core.patch_namespaced_config_map,
                    body["metadata"]["name"],
                    namespace,
                    {"data": body["data"]},
                    _content_type="application/merge-patch+json",
                )
            )

    async def create_job(self, namespace: str, body: dict[str, Any]) -> bool:
        """Create a Job; ``False`` if it already exists (idempotent retries)."""
        try:
            await self._call(self._batch.create_namespaced_job, namespace, body)
        except ApiException as exc:
            if exc.status == 409:
                return False
            raise
        return True

    async def delete_job(self, namespace: str, name: str) -> None:
        """Delete a Job and its pods (background propagation); absent is fine."""
        try:
            await self._call(
                self._batch.delete_namespaced_job, name, namespace, propagation_policy="Background"
            )
        except ApiException as exc:
            if exc.status != 404:
                raise

    async def get_job(self, namespace: str, name: str) -> dict[str, Any] | None:
        """One Job as a plain dict, or ``None`` when it does not exist."""
        try:
            job = await self._call(self._batch.read_namespaced_job, name, namespace)
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise
        return dict(self._api.sanitize_for_serialization(job))

    async def job_pods(self, namespace: str, job_uid: str) -> list[dict[str, Any]]:
        """The pods the Job controller made for one Job (by its uid, not its reusable name)."""
        pods = await self._call(
            self._core.list_namespaced_pod,
            namespace,
            label_selector=f"batch.kubernetes.io/controller-uid={job_uid}",
        )
        return [self._api.sanitize_for_serialization(p) for p in pods.items]

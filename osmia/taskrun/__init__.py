"""The TaskRun as typed Python values, parsed and validated from a kopf body or a YAML document.

A thin facade, as :mod:`osmia.memory` is: callers import from here. Underneath, one-way layers:

* :mod:`~osmia.taskrun.inference`: the task type and repository slug a run does not state outright;
* :mod:`~osmia.taskrun.model`: the frozen values (:class:`TaskRun`, its ticket, repository, result);
* :mod:`~osmia.taskrun.limits`: the CRD's limits, checked again for files no API server saw;
* :mod:`~osmia.taskrun.parse`: a document into a :class:`TaskRun`, naming the first bad field.

No API calls anywhere.
"""

from osmia.taskrun.inference import infer_task_type, normalize_repository, short_repository
from osmia.taskrun.limits import (
    CRD_LIMITS,
    DNS_LABEL,
    INT64_MAX,
    MAX_NAME,
    MAX_NAMESPACE,
    MAX_UID,
    Limit,
    dns_label_problem,
    dns_subdomain_problem,
)
from osmia.taskrun.model import (
    API_VERSION,
    EXECUTION_MODES,
    KIND,
    TASK_TYPES,
    TERMINAL_PHASES,
    Flow,
    Phase,
    Repository,
    Result,
    TaskRun,
    TaskRunError,
    Ticket,
)
from osmia.taskrun.parse import check_consistent, parse_taskrun

__all__ = [
    "API_VERSION",
    "CRD_LIMITS",
    "DNS_LABEL",
    "EXECUTION_MODES",
    "INT64_MAX",
    "KIND",
    "MAX_NAME",
    "MAX_NAMESPACE",
    "MAX_UID",
    "TASK_TYPES",
    "TERMINAL_PHASES",
    "Flow",
    "Limit",
    "Phase",
    "Repository",
    "Result",
    "TaskRun",
    "TaskRunError",
    "Ticket",
    "check_consistent",
    "dns_label_problem",
    "dns_subdomain_problem",
    "infer_task_type",
    "normalize_repository",
    "parse_taskrun",
    "short_repository",
]

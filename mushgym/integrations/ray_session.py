"""One way into Ray for every mushgym trainer and benchmark: join the cluster the user names, or
start a new local instance.

``init_ray(address)`` joins ``address`` (or ``RAY_ADDRESS``: ``auto``, ``HOST:PORT``,
``ray://HOST:10001``). With neither it starts a new local instance, even when a cluster runs on
this machine: plain ``ray.init()`` would join the one that ``ray start`` last recorded under
``/tmp/ray``, and then refuse ``num_cpus``. A refused connection names the token-authentication
setting that recent Ray releases turn on for ``ray start``.
"""

from __future__ import annotations

import os


def init_ray(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Connect to ``address`` (or ``RAY_ADDRESS``) or start a local instance of ``num_cpus`` CPUs
    (default: all); True if this call started Ray, False if it was already running here."""
    import ray

    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(
                address="local",
                num_cpus=num_cpus,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
    except ConnectionError as err:
        raise ConnectionError(
            f"{err}. If `ray start` said 'Token authentication is enabled', run this process with "
            f"RAY_AUTH_MODE=token (and the cluster's token in ~/.ray/auth_token or RAY_AUTH_TOKEN)"
        ) from err
    return True

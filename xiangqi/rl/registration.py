"""The Gymnasium id of the xiangqi environments and its registration (no Gymnasium import
until registering)."""

from __future__ import annotations

#: The Gymnasium id of GymEnv (and, through ``gymnasium.make_vec``, of GymVectorEnv).
ENV_ID = "xiangqi/Xiangqi-v0"


def register_envs() -> None:
    """Register ``xiangqi/Xiangqi-v0`` (ENV_ID) with Gymnasium; a second call does nothing.

    ``import xiangqi.rl`` calls it when Gymnasium is installed, so ``gymnasium.make(ENV_ID)``
    and ``gymnasium.make_vec(ENV_ID, vectorization_mode="vector_entry_point")`` work after
    it; it is also the package's ``gymnasium.envs`` entry point (read by Gymnasium 0.26 to
    0.29, which load such plugins on their own import). The environment classes are named
    by text, so registering imports neither them nor xiangqi.rl.gym_env.
    """
    # the registration module, not the package: Gymnasium 0.29 calls this during its own import
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(
            id=ENV_ID,
            entry_point="xiangqi.rl.gym_env:GymEnv",
            vector_entry_point="xiangqi.rl.gym_env:GymVectorEnv",
        )

"""``method=yu_neural``: the full Yu et al. framework (paper App. app:yu), CPU PyTorch
(docs/method/baselines.md#field-reconstruction).

A coordinate network ``(t, x) -> u`` (2 -> 20 x 5 -> 1, inputs scaled to [-1, 1], float32) with
the learnable Gaussian activation ``exp(-(h - mu)^2 / (2 sigma^2))`` (one ``mu ~ N(0, 1)`` and one
``sigma = 1`` per hidden layer) is fitted to every grid point of the noisy field (random 20 %
validation from ``default_rng(seed)``; Adam, lr 1e-3, weight decay 1e-4, batch 4096, up to 10000
epochs, early stopping with patience 1200 and minimum improvement 1e-9, best validation state
restored). Its derivatives by automatic differentiation feed the shared pipeline of
:mod:`weakpareto.baselines.yu_core`.

PyTorch is an optional dependency (``pip install 'weakpareto[neural]'``); :func:`require_torch`
turns its absence into a one-line :class:`~weakpareto.errors.UserInputError`. Written from the
published description; Yu et al.'s code carries no licence and is not used.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from weakpareto._typing import Array
from weakpareto.baselines.yu_core import YuSettings, check_domain, run_pipeline
from weakpareto.errors import UserInputError
from weakpareto.records import DiscoveryResult

EXTRA_HINT = "pip install 'weakpareto[neural]'"


def require_torch() -> Any:
    """The ``torch`` module, or a one-line :class:`UserInputError` naming the extra."""
    try:
        import torch
    except ImportError:
        raise UserInputError(
            f"method=yu_neural needs PyTorch, which is not installed; {EXTRA_HINT}"
        ) from None
    return torch


@dataclass(frozen=True)
class NeuralSettings:
    """Network and training constants of the full variant (defaults are the paper's;
    docs/method/baselines.md#field-reconstruction)."""

    width: int = 20
    depth: int = 5  # hidden layers
    lr: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 4096
    epochs: int = 10000
    patience: int = 1200
    min_delta: float = 1e-9
    train_val_fraction: float = 0.2
    threads: int = 1  # torch intra-op threads (one per worker, like BLAS)
    chunk: int = 65536  # points per autograd evaluation


def _build_network(torch: Any, settings: NeuralSettings) -> Any:
    nn = torch.nn

    class GaussianActivation(nn.Module):  # type: ignore[name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.mu = nn.Parameter(torch.randn(()))
            self.sigma = nn.Parameter(torch.ones(()))

        def forward(self, h: Any) -> Any:
            return torch.exp(-((h - self.mu) ** 2) / (2.0 * self.sigma**2))

    layers: list[Any] = [nn.Linear(2, settings.width), GaussianActivation()]
    for _ in range(settings.depth - 1):
        layers += [nn.Linear(settings.width, settings.width), GaussianActivation()]
    layers.append(nn.Linear(settings.width, 1))
    return nn.Sequential(*layers)


class NeuralField:
    """A trained coordinate network; derivatives on tensor grids by automatic differentiation."""

    def __init__(self, torch: Any, net: Any, t: Array, x: Array, chunk: int) -> None:
        self.torch, self.net, self.chunk = torch, net, int(chunk)
        # physical -> [-1, 1]: s = a z + b
        self.a_t = 2.0 / float(t.max() - t.min())
        self.b_t = -1.0 - self.a_t * float(t.min())
        self.a_x = 2.0 / float(x.max() - x.min())
        self.b_x = -1.0 - self.a_x * float(x.min())

    def scaled(self, t: Array, x: Array) -> Array:
        return np.stack([self.a_t * t + self.b_t, self.a_x * x + self.b_x], axis=-1)

    def points(self, t: Array, x: Array, dt: int = 0, dx: int = 0) -> Array:
        """Derivative ``(dt, dx)`` at the points ``(t_k, x_k)`` (1-D arrays of equal size)."""
        torch = self.torch
        inp_all = self.scaled(np.asarray(t, dtype=float), np.asarray(x, dtype=float))
        out = np.empty(inp_all.shape[0])
        factor = self.a_t**dt * self.a_x**dx
        for s in range(0, inp_all.shape[0], self.chunk):
            inp = torch.tensor(inp_all[s : s + self.chunk], dtype=torch.float32)
            if dt == 0 and dx == 0:
                with torch.no_grad():
                    out[s : s + self.chunk] = self.net(inp)[:, 0].numpy()
                continue
            inp.requires_grad_(True)
            val = self.net(inp)[:, 0]
            total = dt + dx
            for i, axis in enumerate([0] * dt + [1] * dx):
                (g,) = torch.autograd.grad(val.sum(), inp, create_graph=i < total - 1)
                val = g[:, axis]
            out[s : s + self.chunk] = val.detach().numpy()
        return out * factor

    def grid(self, t: Array, x: Array, dt: int = 0, dx: int = 0) -> Array:
        tt, xx = np.meshgrid(np.asarray(t, dtype=float), np.asarray(x, dtype=float), indexing="ij")
        return self.points(tt.ravel(), xx.ravel(), dt, dx).reshape(tt.shape)


@dataclass(frozen=True)
class TrainingLog:
    epochs: int
    best_epoch: int
    best_val: float


def train_field(
    u: Array, t: Array, x: Array, seed: int, settings: NeuralSettings
) -> tuple[NeuralField, TrainingLog]:
    """Fit the coordinate network to every grid point of ``u (nt, nx)`` (early stopping)."""
    torch = require_torch()
    torch.set_num_threads(int(settings.threads))
    torch.manual_seed(int(seed))
    t = np.asarray(t, dtype=float)
    x = np.asarray(x, dtype=float)
    net = _build_network(torch, settings)
    field = NeuralField(torch, net, t, x, settings.chunk)
    tt, xx = np.meshgrid(t, x, indexing="ij")
    inputs = torch.tensor(field.scaled(tt.ravel(), xx.ravel()), dtype=torch.float32)
    target = torch.tensor(np.asarray(u, dtype=float).ravel()[:, None], dtype=torch.float32)
    n = inputs.shape[0]
    perm = np.random.default_rng(int(seed)).permutation(n)
    n_val = int(round(settings.train_val_fraction * n))
    val_idx = torch.tensor(np.sort(perm[:n_val]))
    tr_idx = torch.tensor(np.sort(perm[n_val:]))
    x_tr, y_tr = inputs[tr_idx], target[tr_idx]
    x_va, y_va = inputs[val_idx], target[val_idx]
    opt = torch.optim.Adam(net.parameters(), lr=settings.lr, weight_decay=settings.weight_decay)
    gen = torch.Generator().manual_seed(int(seed))
    best = float("inf")
    best_state = copy.deepcopy(net.state_dict())
    best_epoch, wait, epoch = 0, 0, 0
    for epoch in range(1, settings.epochs + 1):
        order = torch.randperm(x_tr.shape[0], generator=gen)
        for s in range(0, x_tr.shape[0], settings.batch):
            idx = order[s : s + settings.batch]
            opt.zero_grad()
            loss = torch.mean((net(x_tr[idx]) - y_tr[idx]) ** 2)
            loss.backward()
            opt.step()
        with torch.no_grad():
            val = float(torch.mean((net(x_va) - y_va) ** 2))
        if val < best - settings.min_delta:
            best, best_epoch, wait = val, epoch, 0
            best_state = copy.deepcopy(net.state_dict())
        else:
            wait += 1
            if wait >= settings.patience:
                break
    net.load_state_dict(best_state)
    net.eval()
    return field, TrainingLog(epoch, best_epoch, best)


def yu_neural(
    u: Array,
    t: Array,
    x: Array,
    seed: int,
    settings: YuSettings | None = None,
    neural: NeuralSettings | None = None,
    progress: Callable[[str], None] | None = None,
) -> DiscoveryResult:
    """The full Yu et al. framework on a (noisy) field ``u (nt, nx)``."""
    settings = settings or YuSettings()
    neural = neural or NeuralSettings()
    check_domain(t, x, settings)
    t0 = time.perf_counter()
    field, log = train_field(u, t, x, seed, neural)
    timings = {
        "reconstruction": time.perf_counter() - t0,
        "epochs": float(log.epochs),
        "best_epoch": float(log.best_epoch),
    }
    if progress is not None:
        progress(f"network trained: {log.epochs} epochs, best {log.best_epoch}")
    return run_pipeline(field, seed, settings, timings, progress)


def neural_settings_from_method(method: Any) -> NeuralSettings:
    """:class:`NeuralSettings` from a ``method`` config block (missing keys → defaults)."""
    d = NeuralSettings()
    out: dict[str, Any] = {}
    for name in NeuralSettings.__dataclass_fields__:
        v = method.get(name, None)
        if v is None:
            continue
        out[name] = int(v) if isinstance(getattr(d, name), int) else float(v)
    return NeuralSettings(**out)

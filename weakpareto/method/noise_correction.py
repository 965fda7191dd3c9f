"""Noise-aware scoring: the Gram tables and exact fits with the noise covariance removed (ours).

The search scores every candidate by Gram entries of the order banks (paper Eqs. 19-21). Noise in
the data adds its covariance ``C`` to every entry (:mod:`weakpareto.library.noise_covariance`); its
target share grows with the temporal order, so the uncorrected score prefers the smallest
``alpha``. Here the estimated ``C`` is subtracted, with one refinement: each target keeps the noise
energy ``n_ref`` of the least noisy target node of its group (added back to every target-target
entry of the group, rescaled to the target's order as below; a blend of two target nodes, whose
weights sum to one, keeps about the floor of the order between them).
Only *differences* in noise energy between orders bias the choice of ``alpha``, and those are well
predicted: targets of neighbouring orders share their noise. The level itself is not (the weak rows
overlap, so a realised noise energy differs from its expectation by tens of per cent), and removing
it would leave the true model's residual at zero plus that fluctuation. Groups: the sub-unit and
integer targets (``alpha -> 1`` is continuous, same noise), and the superunit targets, whose noise
also comes from the estimated ``u'(0)``; comparing a superunit target with the others keeps both
groups' own noise floors, as the paper's score does.

The energies are compared in the record's own time unit, its duration ``T``: a target of order
``alpha`` scales as ``T^-alpha`` with the unit of time, so one energy kept by every order in the
data's unit would favour different orders in different units (seconds or hours, or the grid step
``WeakPareto`` fits in). In units of ``T`` target ``a`` is ``T^alpha_a`` times its value, so
``n_ref = min_a T^(2 alpha_a) C_aa`` and target ``a, b``'s entry keeps ``n_ref T^-(alpha_a +
alpha_b)``: the same fit in every unit of time.

How much is subtracted: the realised noise energy of a target scatters around its expectation by
``sqrt(2 tr S^2) / tr S`` (``S`` the rows' noise covariance; ~0.5 with the paper's overlapping
tests, :func:`weakpareto.library.noise_covariance.realisation_spread`). The expected covariance is
scaled by one minus that spread, so a realisation one standard deviation below its expectation is
not over-corrected (a negative residual energy would be clipped to zero and the score would lose
its minimum). The noise of the samples behind ``u(0)``/``u'(0)`` is not corrected at all
(:meth:`FeatureCovariance.bulk_weights`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import numpy as np

from weakpareto._typing import Array
from weakpareto.library.families import FamilyLibrary
from weakpareto.library.gram import TINY, GramTables, OrderBanks
from weakpareto.library.noise_covariance import (
    FeatureCovariance,
    bank_covariance,
    realisation_spread,
    row_mask,
)
from weakpareto.library.noise_level import NoiseEstimate, NoiseModel, estimate_noise
from weakpareto.numerics.orders import Branch
from weakpareto.records import Mode

#: Least share of a target's energy that must remain signal once the estimated noise is removed
#: for its temporal branch to be searched: below one half the noise dominates the target (e.g.
#: the superunit target when ``u'(0)`` cannot be estimated at this noise level).
MIN_SIGNAL_FRACTION = 0.5

#: Ridge of a noise-aware fit (docs/method/search.md#ridge-at-the-noise-level): the configured
#: ``lambda`` shrinks a column-normalised design by about ``lambda`` relative to its unit
#: diagonal, which is needed against the noise's share of the Gram entries but on nearly clean
#: data biases collinear columns (``u`` and ``u^2`` of a logistic source: E_fit 0.041 at
#: 1e-3 against 3e-5 unregularised). ``RIDGE_PER_NOISE`` times the target's noise share is that
#: share with an order of margin; ``RIDGE_FLOOR`` keeps near-singular designs solvable.
RIDGE_PER_NOISE = 10.0
RIDGE_FLOOR = 1e-4


def noise_ridge(configured: float, noise_share: float) -> float:
    """The search ridge at the estimated noise share: ``min(lambda, max(RIDGE_FLOOR,
    RIDGE_PER_NOISE * noise_share))`` (never above the configured ``lambda``)."""
    return min(configured, max(RIDGE_FLOOR, RIDGE_PER_NOISE * noise_share))


class TimedSource(Protocol):
    """What :func:`record_duration` reads of a weak library."""

    dt: float
    u: Array


def record_duration(source: TimedSource) -> float:
    """``T``, the duration of a feature source's record in the data's time unit (mean step
    times the intervals; the sampled libraries' ``dt`` is their mean step)."""
    return float(source.dt) * (int(np.shape(source.u)[0]) - 1)


def temporal_orders(mode: Mode, nodes: Array) -> Array:
    """The order of the temporal derivative of each target node (``int``: 1)."""
    nodes = np.asarray(nodes, dtype=float)
    return np.ones_like(nodes) if mode == "int" else nodes


#: Target groups sharing a noise floor (module docstring).
GROUP: dict[str, str] = {"sub": "unit", "int": "unit", "sup": "superunit"}


@dataclass(frozen=True)
class NoiseCorrection:
    """Estimated noise of one field and the corrections it implies for one row split."""

    estimate: NoiseEstimate
    covariance: FeatureCovariance
    masks: tuple[Array, Array]  # training, validation rows as (K_t, K_x) indicators
    reference: tuple[dict[str, float], dict[str, float]]  # n_ref per mask and group (units of T)
    signal_fraction: dict[Mode, float]
    noise_share: float  # noise energy / energy of the least noisy target (training rows)
    share: float  # part of the expected covariance subtracted: 1 - its realisation's spread
    superunit_nodes: Array  # the super-unit branch's order nodes (empty: not searched)
    duration: float  # T, the record's duration in the data's time unit

    @classmethod
    def build(
        cls,
        source: object,
        banks: OrderBanks,
        beta_nodes: Array,
        rows: tuple[Array, Array],
        model: NoiseModel,
        tables: GramTables,
    ) -> tuple[NoiseCorrection, GramTables]:
        """The correction and the corrected tables of a source's banks (``model != "none"``);
        a family library (:mod:`weakpareto.library.families`) is one field and one set of tests,
        its parts differing in their linear columns only."""
        parts = source.parts if isinstance(source, FamilyLibrary) else ()
        # every noise-aware source is a weak library of one field (``dt``, ``u``)
        base: TimedSource = parts[0] if parts else source  # type: ignore[assignment]
        # a source of irregular or incomplete samples estimates its own (complete stencils)
        own = getattr(base, "noise_estimate", None)
        u = base.u
        estimate = own(model) if own is not None else estimate_noise(u, model)
        assert estimate is not None
        full = FeatureCovariance(base, estimate.variance, parts)  # type: ignore[arg-type]
        first = banks.branches[0]  # its node next to alpha = 1: a typical, signal-rich target
        spread = realisation_spread(full, full.bulk_weights(first.nodes[-1:], first.mode)[0])
        share = float(np.clip(1.0 - spread, 0.0, 1.0))
        cov = FeatureCovariance(base, share * estimate.variance, parts)  # type: ignore[arg-type]
        shape = base.shape  # type: ignore[attr-defined]
        masks = (row_mask(rows[0], shape), row_mask(rows[1], shape))
        keep = getattr(base, "row_keep", None)  # dropped weak equations carry no noise
        if keep is not None:
            masks = (masks[0] * keep.reshape(shape), masks[1] * keep.reshape(shape))
        branches = tuple((b.mode, b.nodes, banks.target_offset[b.mode]) for b in banks.branches)
        linear = {k: banks.column_offset[k] for k in cov.linear_kinds if k in banks.column_offset}
        n = banks.vectors.shape[0]
        groups = {
            g: np.concatenate(
                [off + np.arange(nodes.size) for mode, nodes, off in branches if GROUP[mode] == g]
            )
            for g in {GROUP[mode] for mode, _, _ in branches}
        }
        duration = record_duration(base)
        # T^alpha of every target (an integer target's order is 1); the columns are not targets
        to_record = np.ones(n)
        for mode, nodes, off in branches:
            to_record[off + np.arange(nodes.size)] = duration ** temporal_orders(mode, nodes)
        covs: list[Array] = []
        refs: list[dict[str, float]] = []
        for mask in masks:
            c = bank_covariance(cov, branches, beta_nodes, linear, n, mask)
            covs.append(c)
            in_record = np.diag(c) * to_record**2
            refs.append({g: float(np.min(in_record[idx])) for g, idx in groups.items()})
        raw = np.diag(tables.train.gram)
        # the whole expected noise energy (covs hold its subtracted share)
        noise = np.diag(covs[0]) / share if share > 0.0 else np.zeros_like(raw)
        fraction = {
            mode: float(np.max(1.0 - noise[idx] / np.maximum(raw[idx], TINY)))
            for mode, nodes, off in branches
            for idx in [off + np.arange(nodes.size)]
        }
        shares = {
            g: float(np.min(noise[idx] / np.maximum(raw[idx], TINY))) for g, idx in groups.items()
        }
        # The super-unit targets' share leaves out the noise of the samples behind u'(0), which
        # enters them with a large weight: it understates their noise; the unit group decides.
        noise_share = shares.get("unit", min(shares.values()))
        for c, ref in zip(covs, refs):
            for g, idx in groups.items():
                c[np.ix_(idx, idx)] -= ref[g] / np.outer(to_record[idx], to_record[idx])
        corrected = tables.minus(covs[0], covs[1])
        sup = [nodes for mode, nodes, _ in branches if mode == "sup"]
        nodes = np.asarray(sup[0] if sup else np.zeros(0), dtype=float)
        references = (refs[0], refs[1])
        result = cls(
            estimate, cov, masks, references, fraction, noise_share, share, nodes, duration
        )
        return result, corrected

    def kept_branches(self, branches: tuple[Branch, ...]) -> tuple[Branch, ...]:
        """Branches whose target is signal-dominated at some node; never none."""
        frac = self.signal_fraction
        kept = tuple(b for b in branches if frac[b.mode] >= MIN_SIGNAL_FRACTION)
        return kept or (max(branches, key=lambda b: frac[b.mode]),)

    @cached_property
    def profiled_reference(self) -> tuple[float, float] | None:
        """The super-unit group's floor ``n_ref`` per mask (units of ``T``) for systems with
        ``u'(0)`` profiled out (:meth:`FeatureCovariance.systems`): the least noisy projected
        target of the branch's nodes, as the banks' floor is of the unprojected ones; None when
        the source does not profile."""
        direction = getattr(self.covariance.source, "slope_direction", None)
        if direction is None or self.superunit_nodes.size == 0:
            return None
        if direction("sup", float(self.superunit_nodes[0])) is None:
            return None
        floors = np.array(
            [
                [c[0, 0] for c in self.covariance.systems("sup", a, (), np.zeros(0), self.masks)]
                for a in self.superunit_nodes
            ]
        )
        floors *= (self.duration ** (2.0 * self.superunit_nodes))[:, None]
        return float(floors[:, 0].min()), float(floors[:, 1].min())

    def floor(self, mode: Mode, alpha: float, mask: int) -> float:
        """The target floor of one mask (0 training, 1 validation) for an exact system of
        ``mode`` at ``alpha``, in the data's units: ``n_ref T^(-2 alpha)`` (module docstring)."""
        profiled = self.profiled_reference if mode == "sup" else None
        ref = profiled[mask] if profiled is not None else self.reference[mask][GROUP[mode]]
        order = 1.0 if mode == "int" else float(alpha)  # temporal_orders of one node
        return ref / self.duration ** (2.0 * order)

    @cached_property
    def full_mask(self) -> Array:
        """Every row of the search (training and validation)."""
        return self.masks[0] + self.masks[1]

    def full_system(self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array) -> Array:
        """Corrected covariance of one exact system ``[y, x_1..x_c]`` summed over all rows
        (what a full-row fit subtracts: the training and validation corrections together)."""
        (c,) = self.covariance.systems(mode, alpha, powers, betas, (self.full_mask,))
        c[0, 0] -= self.floor(mode, alpha, 0) + self.floor(mode, alpha, 1)
        return c

    def expected_system(
        self, mode: Mode, alpha: float, powers: tuple[int, ...], betas: Array
    ) -> Array:
        """Whole expected noise covariance of one exact system ``[y, x_1..x_c]`` over all rows
        (what the noise adds before any correction: the share and the floors put back, and the
        noise of the samples behind the target's initial values, which the correction leaves in
        the score: one realisation shared by every row of a spatial test)."""
        (c,) = self.covariance.systems(
            mode, alpha, powers, betas, (self.full_mask,), with_start=True
        )
        return c / self.share if self.share > 0.0 else np.zeros_like(c)

    def system_tables(
        self,
        tables: GramTables,
        mode: Mode,
        alpha: float,
        powers: tuple[int, ...],
        betas: Array,
    ) -> GramTables:
        """Corrected tables of one exact system ``[y, x_1..x_c]`` (same rule as the banks)."""
        out = self.covariance.systems(mode, alpha, powers, betas, self.masks)
        for i, c in enumerate(out):
            c[0, 0] -= self.floor(mode, alpha, i)
        return tables.minus(out[0], out[1])

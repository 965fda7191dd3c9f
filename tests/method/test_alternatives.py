"""Simpler twins of a refined model (method/alternatives.py): the identity for a term on the
smallest positive order."""

from __future__ import annotations

import dataclasses

import numpy as np

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.compute import build_source
from weakpareto.campaign.config import discovery_config, noise_seed
from weakpareto.evaluation.metrics import score, truth_equation
from weakpareto.method.alternatives import identity_alternative
from weakpareto.method.discovery import Discovery


def _rd_space(seed: int, noise: float = 0.02, **changes: object) -> tuple[Discovery, object]:
    """The beyond_rd cell's discovery; ``changes`` replace fields of its DiscoveryConfig."""
    cfg = compose_config(["+experiment=beyond_rd", "benchmark=rd_space", f"noise={noise}"])
    f = generate(cfg.benchmark, seed)
    u = add_noise(f.u, str(cfg.noise_law.name), noise, noise_seed(cfg, seed))
    dcfg = dataclasses.replace(discovery_config(cfg, seed), **changes)
    return Discovery(build_source(cfg, u, f.t, f.x), dcfg), cfg


def test_a_reaction_term_on_the_smallest_positive_order_becomes_the_identity():
    """RD space, 2 % noise, seed 0 (u_t = 0.04 u + 0.18 R^1.65 u): the polish pinned the reaction
    term at the smallest positive order, -0.1175 R^0.5000 u + 0.2564 R^1.3787 u; its identity
    twin fits as well and is kept."""
    disc, cfg = _rd_space(0)
    res = disc.run()
    m = score(res.final, truth_equation(cfg.benchmark))
    assert m.support_ok and m.operator_ok, res.final.text()
    orders = sorted(t.order for t in res.final.terms)
    assert orders[0] == 0.0 and abs(orders[1] - 1.65) < 0.15
    assert abs(min(t.coef for t in res.final.terms) / 0.04 - 1.0) < 0.15


def test_the_twin_swaps_only_edge_orders_and_needs_the_minimum_order():
    disc, _ = _rd_space(1)
    cand = disc.objective("int", (0, 0)).candidate(np.array([0.5, 1.6]))
    twin = identity_alternative(disc, cand, 1.0, np.array([0.5, 1.6]))
    assert twin is not None and sorted(twin.betas) == [0.0, 1.6]
    assert identity_alternative(disc, cand, 1.0, np.array([0.7, 1.6])) is None
    paper, _ = _rd_space(1, min_positive_order=None)  # the paper's order grid: no twin
    assert identity_alternative(paper, cand, 1.0, np.array([0.5, 1.6])) is None

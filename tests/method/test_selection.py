"""Elbow rule, stopping rule and pruning on constructed fronts (paper Secs. 4.3-4.4)."""

import numpy as np
import pytest

from weakpareto.method.selection import (
    StoppingState,
    inactive_terms,
    is_plateau,
    pareto_front,
    select_elbow,
    select_gain,
    select_on_front,
)
from weakpareto.method.settings import SelectionSettings


def test_pareto_front_drops_dominated_sizes():
    sizes = np.array([1, 2, 3, 4])
    errs = np.array([1e-2, 1e-4, 2e-4, 5e-5])  # c=3 is dominated by c=2
    assert pareto_front(sizes, errs).tolist() == [0, 1, 3]


def test_elbow_picks_knee_of_paper_progress_table():
    # tab:progress (FADE 5 %): the signed elbow selects c = 2
    sizes = np.array([1, 2, 3])
    errs = np.array([5.49e-3, 1.16e-4, 9.40e-5])
    assert select_elbow(sizes, errs) == 1


def test_elbow_without_positive_excess_keeps_smallest():
    sizes = np.array([1, 2, 3])
    errs = np.array([1e-2, 5e-3, 1e-4])  # convex the other way: no interior point above chord
    assert select_elbow(sizes, errs) == 0


@pytest.mark.parametrize(
    "gain, margin, expected", [(0.16, 0.15, 1), (0.14, 0.15, 0), (0.15, 0.15, 0), (0.12, 0.10, 1)]
)
def test_two_point_margin_is_strict(gain, margin, expected):
    errs = np.array([1e-3, 1e-3 / 10**gain])
    assert select_elbow(np.array([1, 2]), errs, margin) == expected


def test_selection_rules_on_front():
    sizes = np.array([1, 2, 3])
    errs = np.array([1e-2, 1e-4, 9e-5])
    aic = np.array([10.0, -5.0, -7.0])
    s = SelectionSettings()
    assert select_on_front(sizes, errs, aic, aic, s) == 1
    assert select_on_front(sizes, errs, aic, aic, SelectionSettings(rule="aic")) == 2


def test_plateau_rule():
    assert is_plateau(1.0e-4, 0.98e-4, 0.03, 0.02)  # 2 % relative gain: plateau
    assert not is_plateau(1.0e-4, 0.5e-4, 0.03, 0.02)
    assert is_plateau(1.0e-4, 1.5e-4, 0.03, 0.02)  # no improvement at all is a plateau too


def test_stopping_after_selected_size_plus_one():
    """FADE-like sweep: c=2 is the elbow; evaluating c=3 triggers the stop (tab:progress)."""
    s = SelectionSettings()
    st = StoppingState()
    assert not st.update(1, 5.49e-3, None, s)
    assert not st.update(2, 1.16e-4, 2, s)  # big gain, selected size == c
    assert st.update(3, 9.40e-5, 2, s)  # elbow stays at 2 < 3 -> stop


def test_no_stop_when_auto_stop_off():
    s = SelectionSettings(auto_stop=False)
    st = StoppingState()
    st.update(1, 1e-2, None, s)
    assert not st.update(2, 1e-2, 1, s)


def test_pruning_drops_negligible_contribution_only():
    rng = np.random.default_rng(1)
    cols = rng.standard_normal((200, 3))
    coef = np.array([1.0, -0.5, 1e-6])
    assert inactive_terms(coef, cols).tolist() == [False, False, True]
    assert inactive_terms(np.array([1.0, 1e-11, 0.3]), cols).tolist() == [False, True, False]


def test_elbow_over_all_sizes_keeps_the_knee_of_a_convex_front():
    """2-D benchmark B: c=4 ties c=3; the dominance filter loses the knee (paper Sec. 4.3)."""
    sizes = np.array([1, 2, 3, 4])
    errs = np.array([0.18, 0.05, 5.0e-4, 5.1e-4])
    aic = np.zeros(4)
    front = SelectionSettings()  # reference code: elbow on the Pareto front
    every = SelectionSettings(elbow_points="all")  # paper wording: every evaluated size
    assert select_on_front(sizes, errs, aic, aic, front) == 0
    assert select_on_front(sizes, errs, aic, aic, every) == 2


def test_paper_stability_rule_needs_an_unchanged_elbow():
    ref, paper = SelectionSettings(), SelectionSettings(stability="paper")
    s_ref, s_paper = StoppingState(), StoppingState()
    for st, s in ((s_ref, ref), (s_paper, paper)):
        st.update(1, 0.18, None, s)
        assert not st.update(2, 0.05, 2, s)
    # at c = 3 the elbow drops to 1: below c, but changed from the previous elbow (2); the
    # error still improves 100x, so the plateau rule does not fire either
    assert s_ref.update(3, 5.0e-4, 1, ref)
    assert not s_paper.update(3, 5.0e-4, 1, paper)
    # an elbow that stays at 2 while c = 3 is evaluated stops the paper rule as well
    st = StoppingState()
    st.update(1, 1e-2, None, paper)
    assert not st.update(2, 1e-4, 2, paper)
    assert st.update(3, 0.5e-4, 2, paper)  # 2 < 3 and unchanged; no plateau (2x better)


# -- per-term gain selector and explain floor (ours) ---------------------------------------------
@pytest.mark.parametrize(
    ("errors", "expected"),
    [
        ([0.95, 0.55, 0.0054], 2),  # KS-like convex front: the elbow keeps c = 1 here
        ([0.23, 0.02, 5e-6], 2),  # a front that keeps falling: the last point
        ([0.97, 0.90, 7.6e-4, 7.0e-4], 2),  # flat start, drop at c = 3, then flat
        ([5.5e-3, 1.1e-4, 9.5e-5], 1),  # FADE 5 % (tab:progress): c = 2
        ([1e-2, 8e-3, 6.5e-3, 5e-3], 0),  # gains of ~0.1 decades per term: none worth a term
    ],
)
def test_gain_rule_on_constructed_fronts(errors, expected):
    sizes = np.arange(1, len(errors) + 1)
    assert select_gain(sizes, np.array(errors), 0.15) == expected


def test_gain_rule_needs_margin_per_added_term():
    # from c = 1 to c = 3 the gain 0.4 decades is below 2 x 0.25 but above 2 x 0.15
    sizes, errs = np.array([1, 3]), np.array([1e-2, 10 ** (-2.4)])
    assert select_gain(sizes, errs, 0.25) == 0
    assert select_gain(sizes, errs, 0.15) == 1


@pytest.mark.parametrize("gain", [0.1, 0.149, 0.151, 0.4])
def test_gain_rule_on_two_points_is_the_papers_margin_rule(gain):
    sizes, errs = np.array([1, 2]), np.array([1e-3, 1e-3 * 10**-gain])
    assert select_gain(sizes, errs, 0.15) == select_elbow(sizes, errs, 0.15)


def test_elbow_misses_the_last_point_of_a_convex_front_but_gain_does_not():
    sizes, errs = np.array([1, 2, 3]), np.array([0.95, 0.55, 0.0054])
    assert select_elbow(sizes, errs, 0.15) == 0
    s = SelectionSettings(rule="gain")
    assert select_on_front(sizes, errs, np.zeros(3), np.zeros(3), s) == 2


def test_explain_floor_keeps_the_sweep_going_while_nothing_is_explained():
    paper = SelectionSettings(rule="gain")
    ours = SelectionSettings(rule="gain", explain_floor=0.5)
    for s, stops in ((paper, True), (ours, False)):
        state = StoppingState()
        state.update(1, 0.95, None, s)
        # c = 2 barely improves: the selection stays at size 1 < c, the paper's stop
        assert state.update(2, 0.90, 1, s) is stops
    state = StoppingState()
    state.update(1, 0.95, None, ours)
    state.update(2, 0.90, 1, ours)
    state.update(3, 7.6e-4, 3, ours)  # explained now: the usual rules apply again
    assert state.update(4, 7.0e-4, 3, ours) is True


def test_gain_rule_with_per_model_floors_compares_above_the_larger_floor():
    """The KdV 5 % front: the true two-term model (corrected E 2.1e-4, residual noise 5e-4)
    against terms that lower the corrected error to 6e-5 and 0. A scalar numerical floor takes
    the four-term model; with each model's residual noise as its floor the gains are 0.10 and
    0.13 decades for one and two more terms (margin 0.15 per term), so the truth stays."""
    sizes = np.array([1, 2, 3, 4])
    errors = np.array([2.6e-2, 2.1e-4, 6.0e-5, 0.0])
    assert select_gain(sizes, errors, 0.15, 4.7e-6) == 3
    floors = np.array([4.7e-6, 5.1e-4, 5.3e-4, 6.0e-4])
    assert select_gain(sizes, errors, 0.15, 4.7e-6, floors) == 1
    # equal floors per model are the scalar rule
    for f in (1e-8, 1e-5, 1e-3):
        assert select_gain(sizes, errors, 0.15, f, np.full(4, f)) == select_gain(
            sizes, errors, 0.15, f
        )

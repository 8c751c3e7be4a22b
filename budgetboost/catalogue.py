"""The algorithms of a run in one place: label, family, role, style and display order.

Whatever displays, orders or groups algorithms (summary tables, figures, claims) reads them
from a :class:`Catalogue`, built from the config's ``algorithms`` entries on top of the
defaults of the built-in names (:data:`BUILTIN`). A config entry may set

``label``
    the name shown in legends and tables (default: the built-in label, else the label its
    estimator class declares, else the name);
``family``
    one of :data:`FAMILIES`: which figures draw it and where it sorts (default: the
    built-in family, else the family of its role's built-in algorithm, else the family its
    estimator class declares, else ``"other"``);
``role``
    one of :data:`ROLES`: which of the paper's algorithms it is, for the claims (default:
    the built-in role, else none);
``variant_of``
    the name of another algorithm this one varies (e.g. Greedy boosting depth-2 trees is a
    variant of Greedy with stumps): the open questions' findings and figures compare the two
    (default: none);
``style``
    ``{colour, marker, linestyle}`` (default: the built-in style, else a colour no other
    algorithm of the catalogue has and the next marker).

Whether an algorithm is *tuned* (chooses something on a validation part of its training
rows, :mod:`budgetboost.estimators.contract.tuning`) is not a config key: its estimator says so
(``BudgetedEstimator.tunes``), and :meth:`Catalogue.from_config` records it.

The rule scripts receive the catalogue as a rule param (:meth:`Catalogue.param`, JSON that
cannot close an HTML tag), so editing a label re-runs the results rules only.
"""

from __future__ import annotations

import colorsys
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "BUILTIN",
    "FAMILIES",
    "FAMILY_NAMES",
    "FIELD_FAMILIES",
    "PEER_OPPONENTS",
    "ROLES",
    "RIGHT_AXIS_FAMILIES",
    "Algorithm",
    "Catalogue",
    "Style",
]

#: The field's other approaches to a test-time budget, each compared with the paper's boosters,
#: the library peers and one another (the findings' ``field`` question): optimal
#: cost-sensitive trees (STreeD), forests pruned to the budget (BudgetPrune), per-example
#: feature acquisition (AACO), the static baseline that selects the attributes a budget
#: affords and then trains a model on them, and any method of a user's without a family of
#: the paper's.
FIELD_FAMILIES = ("optimal_tree", "forest", "acquisition", "selection", "other")
#: Every family, in words (the verdict of which family wins names them so), in display order:
#: tables, legends and pairs list them in this order. A family is one entry here.
FAMILY_NAMES = {
    "reference": "the unbudgeted reference",
    "boosting": "budgeted boosting (the paper's)",
    "boosted_trees": "budgeted boosting of small trees",
    "sampling": "boosting with test-time sampling",
    "tree": "budgeted decision trees",
    "optimal_tree": "optimal cost-sensitive trees",
    "forest": "forest pruning",
    "peer": "the libraries' cost-aware boosting",
    "acquisition": "per-example feature acquisition",
    "selection": "select-then-train (the attributes a budget affords, then a model)",
    "other": "other methods",
}
#: The families, in display order.
FAMILIES = tuple(FAMILY_NAMES)
#: Families whose error is on another scale: drawn on a right-hand axis of budget curves.
RIGHT_AXIS_FAMILIES = ("sampling",)
#: The paper's boosters that face the library peers (roles), in the order they are reported.
PEER_OPPONENTS = ("smoothed", "greedy")
#: The paper's algorithms, as the claims refer to them (at most one algorithm per role).
ROLES = (
    "reference",
    "adaboost_bt",
    "greedy",
    "smoothed",
    "speedboost",
    "adaboost_rs",
    "adaboost_rs_ac",
    "tree",
    "tree_cs",
)

# seaborn's "colorblind" palette, as hex (no seaborn import when planning a workflow)
_COLORBLIND = (
    "#0173b2",
    "#de8f05",
    "#029e73",
    "#d55e00",
    "#cc78bc",
    "#ca9161",
    "#fbafe4",
    "#949494",
    "#ece133",
    "#56b4e9",
)
# colours for algorithms without a style: the colorblind ones the built-ins leave free, then
# Paul Tol's muted and dark qualitative palettes; past those, evenly spaced hues
_EXTRA_COLOURS = (
    "#ca9161",
    "#fbafe4",
    "#332288",
    "#117733",
    "#882255",
    "#44aa99",
    "#999933",
    "#aa4499",
    "#88ccee",
    "#cc6677",
    "#ddcc77",
    "#661100",
    "#6699cc",
    "#997700",
    "#004488",
)
_MARKERS = ("o", "s", "^", "v", "P", "X", "D", "h", "p", "*", "<", ">", "d", "H", "8")


@dataclass(frozen=True)
class Style:
    """How an algorithm is drawn: a matplotlib colour, marker and line style."""

    colour: str
    marker: str
    linestyle: str = "-"


@dataclass(frozen=True)
class Algorithm:
    """One algorithm of the catalogue."""

    name: str
    label: str
    family: str
    style: Style
    role: str | None = None
    variant_of: str | None = None
    tuned: bool = False

    @property
    def right_axis(self) -> bool:
        """Drawn on a right-hand axis of budget curves (error on another scale)."""
        return self.family in RIGHT_AXIS_FAMILIES


#: Defaults of the built-in algorithm names, in the paper's order.
BUILTIN: dict[str, dict[str, Any]] = {
    "adaboost": {
        "label": "AdaBoost (unbudgeted)",
        "family": "reference",
        "role": "reference",
        "style": Style("black", "D", ":"),
    },
    "adaboost_bt": {
        "label": "AdaBoostBT",
        "family": "boosting",
        "role": "adaboost_bt",
        "style": Style(_COLORBLIND[0], "o"),
    },
    "greedy": {
        "label": "AdaBoostBT_Greedy",
        "family": "boosting",
        "role": "greedy",
        "style": Style(_COLORBLIND[1], "s"),
    },
    "smoothed": {
        "label": "AdaBoostBT_Smoothed",
        "family": "boosting",
        "role": "smoothed",
        "style": Style(_COLORBLIND[2], "^"),
    },
    "speedboost": {
        "label": "SpeedBoost",
        "family": "boosting",
        "role": "speedboost",
        "style": Style(_COLORBLIND[4], "v", "--"),
    },
    "hybrid": {"label": "Hybrid", "family": "boosting", "style": Style(_COLORBLIND[9], "P")},
    "adaboost_rs": {
        "label": "AdaBoostRS",
        "family": "sampling",
        "role": "adaboost_rs",
        "style": Style("#4d4d4d", "X", "-."),
    },
    "adaboost_rs_ac": {
        "label": "AdaBoostRS_AC",
        "family": "sampling",
        "role": "adaboost_rs_ac",
        "style": Style(_COLORBLIND[7], "*", "-."),
    },
    "tree": {
        "label": "Decision tree",
        "family": "tree",
        "role": "tree",
        "style": Style(_COLORBLIND[3], "h"),
    },
    "tree_cs": {
        "label": "Cost-sensitive tree",
        "family": "tree",
        "role": "tree_cs",
        "style": Style(_COLORBLIND[8], "p"),
    },
}


class Catalogue(Mapping[str, Algorithm]):
    """The algorithms of a run, in display order (family, then built-in order, then config).

    Parameters
    ----------
    entries : mapping
        ``{name: entry}`` where an entry may hold ``label``, ``family``, ``role``,
        ``variant_of`` and ``style`` (a :class:`Style` or a mapping of its fields); missing
        fields come from
        :data:`BUILTIN` for built-in names, else from ``defaults``, else from the defaults
        above.
    defaults : mapping, optional
        ``{name: {"label": ..., "family": ...}}``: what each algorithm's estimator class
        declares (``BudgetedEstimator.label`` and ``.family``;
        :func:`budgetboost.pipeline.plan.algorithm_catalogue` reads them), under the
        entry's own keys, the built-in name's and its role's family.

    Notes
    -----
    Names that are not in the catalogue but turn up in results (e.g. an old shard) are
    treated as family ``"other"`` with their name as label and sort last, alphabetically.
    """

    def __init__(
        self,
        entries: Mapping[str, Mapping[str, Any]],
        defaults: Mapping[str, Mapping[str, Any]] | None = None,
    ):
        defaults = defaults or {}
        partial = {
            name: {
                **BUILTIN.get(name, {}),
                **{k: v for k, v in dict(entry).items() if v is not None},
            }
            for name, entry in entries.items()
        }
        role_family = {e["role"]: e["family"] for e in BUILTIN.values() if "role" in e}
        for name, entry in partial.items():
            if "family" not in entry and entry.get("role") in role_family:
                entry["family"] = role_family[entry["role"]]  # a Greedy is a booster
            for key, value in defaults.get(name, {}).items():
                if value is not None:
                    entry.setdefault(key, value)  # what the estimator's class declares
            if entry.get("family", "other") not in FAMILIES:
                raise ValueError(
                    f"algorithm {name!r}: family {entry['family']!r} is not one of {list(FAMILIES)}"
                )
            if entry.get("role") is not None and entry["role"] not in ROLES:
                raise ValueError(
                    f"algorithm {name!r}: role {entry['role']!r} is not one of {list(ROLES)}"
                )
            base = entry.get("variant_of")
            if base is not None and (base not in partial or base == name):
                raise ValueError(
                    f"algorithm {name!r}: variant_of {base!r} is not another algorithm "
                    f"of the config (defined: {', '.join(partial)})"
                )
        for name in partial:  # a variant of a variant of itself has no base to compare with
            chain = [name]
            while (base := partial[chain[-1]].get("variant_of")) is not None:
                if base in chain:
                    raise ValueError(
                        f"algorithm {base!r}: variant_of goes round in a circle "
                        f"({' -> '.join([*chain[chain.index(base) :], base])})"
                    )
                chain.append(base)
        position = {name: i for i, name in enumerate(partial)}
        builtin = list(BUILTIN)

        def key(name: str) -> tuple[int, int, int]:
            family = partial[name].get("family", "other")
            rank = builtin.index(name) if name in builtin else len(builtin)
            return FAMILIES.index(family), rank, position[name]

        order = sorted(partial, key=key)
        styles = _assign_styles(order, {n: partial[n].get("style") for n in order})
        self._algorithms = {
            name: Algorithm(
                name=name,
                label=str(partial[name].get("label", name)),
                family=partial[name].get("family", "other"),
                style=styles[name],
                role=partial[name].get("role"),
                variant_of=partial[name].get("variant_of"),
                tuned=bool(partial[name].get("tuned", False)),
            )
            for name in order
        }
        roles: dict[str, str] = {}
        for algorithm in self._algorithms.values():
            if algorithm.role is None:
                continue
            if algorithm.role in roles:
                raise ValueError(
                    f"algorithms {roles[algorithm.role]!r} and {algorithm.name!r} "
                    f"both have the role {algorithm.role!r}"
                )
            roles[algorithm.role] = algorithm.name
        self._roles = roles

    # ----------------------------------------------------------------- construction

    @classmethod
    def default(cls) -> Catalogue:
        """The built-in algorithms only."""
        return cls({name: {} for name in BUILTIN})

    @classmethod
    def from_config(
        cls,
        algorithms: Mapping[str, Mapping[str, Any]],
        tuned: Iterable[str] = (),
        defaults: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Catalogue:
        """The catalogue of a config's ``algorithms`` section (other keys are ignored);
        ``tuned`` names the algorithms whose estimator tunes on a validation part,
        ``defaults`` the label and family their estimator classes declare (see
        :class:`Catalogue`)."""
        tuned = set(tuned)
        return cls(
            {
                name: {
                    **{
                        key: entry[key]
                        for key in ("label", "family", "role", "style", "variant_of")
                        if key in entry
                    },
                    "tuned": name in tuned,
                }
                for name, entry in algorithms.items()
            },
            defaults,
        )

    def records(self) -> dict[str, dict[str, Any]]:
        """A plain, JSON-able form (a rule param); ``Catalogue(records)`` rebuilds it."""
        return {
            name: {
                "label": a.label,
                "family": a.family,
                "role": a.role,
                "style": asdict(a.style),
                "variant_of": a.variant_of,
                "tuned": a.tuned,
            }
            for name, a in self._algorithms.items()
        }

    def param(self) -> str:
        """:meth:`records` as a rule param: JSON in which ``<``, ``>`` and ``&`` are
        ``\\u003c``, ``\\u003e`` and ``\\u0026``. Snakemake copies the params of a
        report's rules into a ``<script>`` element of the HTML report: a label such as
        ``</script><img onerror=...>`` written raw would end the element and run there."""
        text = json.dumps(self.records(), ensure_ascii=True)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

    @classmethod
    def from_param(cls, param: str) -> Catalogue:
        """The catalogue of a :meth:`param` (in a rule script)."""
        return cls(json.loads(param))

    def including(self, names: Iterable[str]) -> Catalogue:
        """This catalogue plus any of ``names`` it lacks (family ``other``), for results
        that hold algorithms the config no longer lists."""
        missing = sorted(set(names) - set(self._algorithms))
        if not missing:
            return self
        return Catalogue({**self.records(), **{name: {} for name in missing}})

    # ----------------------------------------------------------------- lookups

    def __getitem__(self, name: str) -> Algorithm:
        return self._algorithms[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._algorithms)

    def __len__(self) -> int:
        return len(self._algorithms)

    def label(self, name: str) -> str:
        """The display label of ``name`` (the name itself if unknown)."""
        return self._algorithms[name].label if name in self._algorithms else name

    def sort(self, names: Iterable[str]) -> list[str]:
        """Distinct ``names`` in catalogue order; unknown names last, alphabetically."""
        order = {name: i for i, name in enumerate(self._algorithms)}
        return sorted(set(names), key=lambda n: (order.get(n, len(order)), n))

    def rank(self, name: str) -> int:
        """Position of ``name`` in the catalogue order (unknown names: after all)."""
        order = list(self._algorithms)
        return order.index(name) if name in order else len(order)

    def variants(self) -> list[tuple[str, str]]:
        """``(variant, base)`` pairs: algorithms declared ``variant_of`` another (e.g.
        Greedy boosting depth-2 trees, a variant of Greedy with stumps), catalogue order."""
        return [(n, a.variant_of) for n, a in self._algorithms.items() if a.variant_of]

    def of_family(self, *families: str) -> list[str]:
        """Names of the algorithms of ``families``, in catalogue order."""
        return [n for n, a in self._algorithms.items() if a.family in families]

    def with_role(self, role: str) -> str | None:
        """The name of the algorithm that plays ``role`` (one of :data:`ROLES`), if any."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}; expected one of {list(ROLES)}")
        return self._roles.get(role)

    def peer_opponents(self) -> list[str]:
        """The algorithms that face the peers: those of the roles :data:`PEER_OPPONENTS`
        (as published), then their tuned variants (tuned against tuned)."""
        published = self.with_roles(*PEER_OPPONENTS)
        tuned = [v for v, base in self.tuned_variants() if base in published]
        return published + tuned

    def field_contenders(self) -> list[str]:
        """The methods the field's question compares (catalogue order within each part): the
        peers' opponents (the paper's Smoothed and Greedy, as published and tuned), the
        library peers, then the algorithms of :data:`FIELD_FAMILIES`."""
        return [
            *self.peer_opponents(),
            *self.of_family("peer"),
            *self.of_family(*FIELD_FAMILIES),
        ]

    def tuned_variants(self) -> list[tuple[str, str]]:
        """``(variant, base)`` pairs where the variant tunes on validation and its base does
        not (e.g. Smoothed with ``tau`` and the prefix chosen on validation, and Smoothed)."""
        return [
            (v, b)
            for v, b in self.variants()
            if self._algorithms[v].tuned and not self._algorithms[b].tuned
        ]

    def tree_variants(self) -> list[tuple[str, str]]:
        """``(variant, base)`` pairs of the boosted-trees family (trees against stumps)."""
        return [(v, b) for v, b in self.variants() if self._algorithms[v].family == "boosted_trees"]

    def with_roles(self, *roles: str) -> list[str]:
        """Names of the algorithms that play ``roles`` (those present), in role order."""
        return [name for name in (self.with_role(r) for r in roles) if name is not None]


def _assign_styles(order: list[str], given: Mapping[str, Any]) -> dict[str, Style]:
    """Styles of every name: the given ones, then distinct colours for the rest.

    A name without a style gets the first colour of ``_EXTRA_COLOURS`` (then evenly
    spaced hues) that no other algorithm of the catalogue uses, and the next marker, so two
    algorithms never share a colour in any figure.
    """
    styles = {name: _as_style(given[name]) for name in order if given[name] is not None}
    used = {s.colour.lower() for s in styles.values()}
    pending = [name for name in order if name not in styles]
    colours = [c for c in _EXTRA_COLOURS if c not in used]
    extra = len(pending) - len(colours)
    if extra > 0:  # past the palettes: evenly spaced hues at two lightness levels
        colours += [_hue(i, extra) for i in range(extra)]
    for i, name in enumerate(pending):
        styles[name] = Style(colours[i], _MARKERS[i % len(_MARKERS)])
    return styles


def _as_style(value: Any) -> Style:
    if isinstance(value, Style):
        return value
    fields = dict(value)
    return Style(
        colour=str(fields["colour"]),
        marker=str(fields.get("marker", "o")),
        linestyle=str(fields.get("linestyle", "-")),
    )


def _hue(i: int, n: int) -> str:
    r, g, b = colorsys.hls_to_rgb(i / n, 0.35 + 0.2 * (i % 2), 0.75)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"

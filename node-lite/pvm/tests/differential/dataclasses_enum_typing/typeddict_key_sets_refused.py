# refused: dunder-attribute
from typing import TypedDict


class Movie(TypedDict):
    title: str
    year: int


class Review(Movie, total=False):
    stars: int


def run():
    return [sorted(Review.__required_keys__), sorted(Review.__optional_keys__), Movie.__total__, Review.__total__]

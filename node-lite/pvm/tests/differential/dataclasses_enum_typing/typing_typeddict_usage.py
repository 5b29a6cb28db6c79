from typing import TypedDict, get_type_hints


class Movie(TypedDict):
    title: str
    year: int


class PartialMovie(TypedDict, total=False):
    title: str
    rating: int


class Review(Movie, total=False):
    stars: int


def run():
    m: Movie = {"title": "Up", "year": 2009}
    m2 = Movie(title="Cars", year=2006)
    r: Review = {"title": "X", "year": 1, "stars": 5}
    return [
        m,
        m2,
        type(m2).__name__,
        isinstance(m, dict),
        {k: repr(v) for k, v in get_type_hints(Review).items()},
        {k: repr(v) for k, v in get_type_hints(PartialMovie).items()},
        r.get("stars"),
        PartialMovie(title="Heat"),
        r == {"stars": 5, "year": 1, "title": "X"},
        sorted(Review(title="Y", year=2)),
    ]

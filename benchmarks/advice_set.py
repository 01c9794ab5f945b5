"""A labelled set for universal advice (osmia/memory/advice.py): learnings that name nothing.

Written by hand for the twenty-first session, in the words agents close a run with: platitudes,
self-reports and process advice that would be as true of any repository. The lessons they are
told apart from are the labelled lesson set's (:mod:`benchmarks.lesson_pairs`: 229 lessons, 25
of them with no identifier). :func:`evaluate` reports how many of each the ranking treats as
advice (or the storing gate drops).
"""

from __future__ import annotations

from benchmarks.lesson_pairs import lessons
from osmia.memory.advice import universal_advice
from osmia.memory.lessons import informative

ADVICE: tuple[str, ...] = (
    "Always run the full test suite before opening a pull request",
    "Small commits make the review easier",
    "Read the existing code before changing it",
    "Took a while to understand the codebase",
    "Writing tests first helped catch problems early",
    "It helps to reproduce the bug before fixing it",
    "Keep pull requests focused on a single concern",
    "Double check the logic before committing",
    "Good naming makes the code easier to maintain",
    "The change was small and low risk",
    "Verified the behaviour manually as well",
    "Be mindful of side effects when refactoring",
    "Make sure all edge cases are covered by tests",
    "Understanding the requirements carefully saved time",
    "The tests gave good confidence in the change",
    "Avoid making unrelated changes in the same commit",
    "Consider performance implications of new code",
    "Error handling should be thorough",
    "Following the existing conventions of the project keeps things consistent",
    "Spent some time debugging before finding the cause",
    "Adding logging helped to understand what was going on",
    "It is a good idea to ask for clarification when the ticket is unclear",
    "Documentation should be kept up to date",
    "Always handle errors properly",
    "Simple solutions are usually better",
    "Testing thoroughly is essential",
    "Made sure nothing else was broken by the change",
    "The existing tests were helpful for understanding the behaviour",
    "Breaking the problem into smaller steps made it manageable",
    "Paying attention to details avoided mistakes",
    "Code quality matters for long term maintenance",
    "I should have checked the requirements more closely",
    "Communication with the team is important",
    "Run linters and formatters before pushing",
    "Keep functions short and focused",
    "Write clear commit messages",
    "Remember to clean up temporary files",
    "Check the logs when something fails",
    "Prefer readability over cleverness",
    "Tests should be deterministic",
    "Don't forget to rebase on the main branch before merging",
    "The root cause turned out to be a simple typo",
    "Everything compiles and all checks are green",
    "Careful planning made the implementation smooth",
    "Make incremental changes and test often",
    "This was a tricky one but it is sorted now",
    "Reusing existing helpers avoided duplication",
    "Be consistent with the surrounding code style",
    "Thorough testing caught a regression",
    "Always consider backwards compatibility",
    "Be thoughtful about naming when adding new functions",
    "Keep the pull request small so it is easy to review",
    "Communicated clearly with the reviewer about the approach",
    "Took extra care to avoid breaking anything",
)


def evaluate() -> dict[str, tuple[int, int]]:
    """``{"advice": (caught, of), "lessons": (called advice, of)}``: caught means the ranking
    treats it as universal advice or the storing gate drops it."""
    caught = sum(1 for text in ADVICE if universal_advice(text) or not informative(text))
    known = lessons()
    wrong = sum(1 for text in known if universal_advice(text))
    return {"advice": (caught, len(ADVICE)), "lessons": (wrong, len(known))}


if __name__ == "__main__":
    for name, (hit, total) in evaluate().items():
        print(f"{name}: {hit} of {total} called advice")

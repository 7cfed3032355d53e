"""Blueprints: main (home, settings, health), lessons, practice (quizzes), progress, api."""

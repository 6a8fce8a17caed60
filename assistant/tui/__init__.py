"""The interactive assistant (Textual). Only this package imports textual."""

"""Clubs (vilabu): the values, refusals and storage the clubs function and the tournaments share."""

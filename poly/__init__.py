"""The polyhedral layer: ISL sets and relations for affine IR (the only user of islpy)."""

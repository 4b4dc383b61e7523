eq_hidden.v

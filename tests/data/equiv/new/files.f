eq_counter.v

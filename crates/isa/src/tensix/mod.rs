//! Tensix instruction encodings (Blackhole, Wormhole B0).

pragma circom 2.0.0;

// No public signals at all: private inputs only and no outputs, so public.json is [].
template AllPrivate() {
    signal input x;
    signal input y;

    signal t;
    signal u;
    signal v;
    t <== x * y;
    u <== t * t;
    v <== u * x;
}

component main = AllPrivate();

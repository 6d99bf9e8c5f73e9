pragma circom 2.2.0;

// Bus inputs (circom 2.2): their fields are input signals named p.x, q[0].y, ...
bus Point() {
    signal x;
    signal y;
}

template Buses() {
    input Point() p;
    input Point() q[2];
    signal input k[2][2];
    signal output s;

    signal t <== p.x * p.y;
    signal u <== q[0].x * q[1].y;
    signal v <== k[0][1] * k[1][0];
    s <== t + u + v + q[0].y + q[1].x + k[0][0] + k[1][1];
}

component main {public [k]} = Buses();

package dev.proofline.daemon;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A process that holds up to {@code count} TCP connections to a port for {@code seconds}: on the gRPC
 * port each sends HTTP/2's preface and nothing more, on the HTTP port nothing at all. A connection the
 * daemon closes is opened again, so that the count stays. Prints "full" once it holds them all, and at
 * the end "opened A closed-by-daemon B refused C held D".
 *
 * <p>{@code java -cp ... ConnectionFlooder <host> <port> grpc|http <count> <seconds>}
 */
public final class ConnectionFlooder {

    private ConnectionFlooder() {
    }

    public static void main(String[] args) throws IOException {
        InetSocketAddress at = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        boolean grpc = args[2].equals("grpc");
        int count = Integer.parseInt(args[3]);
        long end = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
        byte[] preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer sink = ByteBuffer.allocate(1 << 16);
        long opened = 0;
        long closed = 0;
        long refused = 0;
        int held = 0;
        boolean full = false;
        try (Selector selector = Selector.open()) {
            while (System.nanoTime() < end) {
                while (held < count && System.nanoTime() < end) {
                    SocketChannel c;
                    try {
                        c = SocketChannel.open(at);
                        if (grpc) {
                            c.write(ByteBuffer.wrap(preface));
                        }
                        c.configureBlocking(false);
                        c.register(selector, SelectionKey.OP_READ);
                    } catch (IOException e) {
                        refused++;
                        break;
                    }
                    held++;
                    opened++;
                }
                if (held == count && !full) {
                    full = true;
                    System.out.println("full");
                    System.out.flush();
                }
                selector.select(200);
                for (SelectionKey k : selector.selectedKeys()) {
                    SocketChannel c = (SocketChannel) k.channel();
                    boolean gone;
                    try {
                        int n;
                        do {
                            sink.clear();
                            n = c.read(sink);
                        } while (n > 0);
                        gone = n < 0;
                    } catch (IOException e) {
                        gone = true;
                    }
                    if (gone) {
                        k.cancel();
                        c.close();
                        held--;
                        closed++;
                    }
                }
                selector.selectedKeys().clear();
            }
            for (SelectionKey k : selector.keys()) {
                k.channel().close();
            }
        }
        System.out.println("opened " + opened + " closed-by-daemon " + closed + " refused " + refused + " held " + held);
    }
}

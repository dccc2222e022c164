package io.github.affinitykit.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.CpuLease;
import io.github.affinitykit.core.LeaseStatus;
import io.github.affinitykit.netty.AssignmentReport;
import io.github.affinitykit.netty.LoopAssignment;
import io.github.affinitykit.netty.PinnedServerGroups;
import io.github.affinitykit.netty.Transport;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.netty.util.concurrent.EventExecutor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real gRPC server on pinned groups answering a real client: a unary and a server-streaming call
 * run on the worker loops ({@code directExecutor}), each answer says the kernel's mask of the
 * thread that made it; every worker loop's mask is read back; closing frees the CPUs.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class PinnedGrpcServerTest {
  private static final MethodDescriptor.Marshaller<String> UTF8 =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
          return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
          try {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
  private static final MethodDescriptor<String, String> WHERE = method("Where", MethodType.UNARY);
  private static final MethodDescriptor<String, String> EVERY =
      method("Every", MethodType.SERVER_STREAMING);

  @TempDir Path locks;

  @ParameterizedTest
  @EnumSource(
      value = Transport.class,
      names = {"NIO", "AUTO"})
  void shouldAnswerUnaryAndStreamingCallsFromPinnedWorkerLoops(Transport transport)
      throws Exception {
    AffinityKit kit = TestKit.create(locks);
    assumeTrue(kit.backend().isSupported(), kit.backend().reason());
    assumeTrue(kit.host().reachable().size() >= 2, "needs 2 CPUs");
    List<Integer> cpus = new ArrayList<>();
    try (PinnedServerGroups groups =
        PinnedServerGroups.builder(kit).transport(transport).workers(2).build()) {
      Server server =
          PinnedGrpcServer.configure(
                  NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)), groups)
              .directExecutor() // the calls run on the worker loop that read them
              .addService(probeService())
              .build()
              .start();
      List<ManagedChannel> clients = new ArrayList<>();
      try {
        Set<String> answered = new HashSet<>();
        for (int c = 0; c < 2; c++) { // two connections: the boss hands them to both workers
          ManagedChannel client =
              NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
          clients.add(client);
          answered.add(ClientCalls.blockingUnaryCall(client, WHERE, CallOptions.DEFAULT, "hi"));
          ClientCalls.blockingServerStreamingCall(client, EVERY, CallOptions.DEFAULT, "3")
              .forEachRemaining(answered::add);
        }

        AssignmentReport report = groups.report();
        assertThat(report.transport().transport()).isNotEqualTo(Transport.AUTO);
        assertThat(answered).isNotEmpty().allSatisfy(a -> assertServedPinned(a, report));
        for (EventExecutor loop : groups.workers()) { // every worker loop, as the kernel says
          String[] seen = loop.submit(PinnedGrpcServerTest::here).get(20, TimeUnit.SECONDS);
          LoopAssignment a = loopRunning(report, seen[0]);
          assertThat(a.status()).isEqualTo(LeaseStatus.PINNED);
          assertThat(seen[1]).isEqualTo(String.valueOf(a.cpu()));
          cpus.add(a.cpu());
        }
        assertThat(cpus).doesNotHaveDuplicates().hasSize(2);
      } finally {
        for (ManagedChannel client : clients) {
          client.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
      }
    }
    for (int cpu : cpus) { // closing the groups freed their CPUs: this thread may take each
      try (CpuLease lease = kit.pinCurrentThread(cpu)) {
        assertThat(lease.status()).as(lease.reason()).isEqualTo(LeaseStatus.PINNED);
      }
    }
  }

  private static void assertServedPinned(String answer, AssignmentReport report) {
    String[] seen = answer.split("\\|");
    LoopAssignment loop = loopRunning(report, seen[0]);
    assertThat(loop.group()).isEqualTo("worker");
    assertThat(loop.status()).isEqualTo(LeaseStatus.PINNED);
    assertThat(seen[1]).as("mask of %s", seen[0]).isEqualTo(String.valueOf(loop.cpu()));
  }

  private static LoopAssignment loopRunning(AssignmentReport report, String thread) {
    return report.loops().stream()
        .filter(l -> l.threadName().equals(thread))
        .findFirst()
        .orElseThrow(() -> new AssertionError(thread + " is no loop of " + report));
  }

  /** The calling thread's name and kernel mask. */
  private static String[] here() {
    return new String[] {Thread.currentThread().getName(), TestKit.kernelMask()};
  }

  private static ServerServiceDefinition probeService() {
    return ServerServiceDefinition.builder("kit.Probe")
        .addMethod(WHERE, ServerCalls.asyncUnaryCall((req, out) -> answer(out, 1)))
        .addMethod(
            EVERY,
            ServerCalls.asyncServerStreamingCall((req, out) -> answer(out, Integer.parseInt(req))))
        .build();
  }

  private static void answer(StreamObserver<String> out, int times) {
    for (int i = 0; i < times; i++) {
      out.onNext(String.join("|", here()));
    }
    out.onCompleted();
  }

  private static MethodDescriptor<String, String> method(String name, MethodType type) {
    return MethodDescriptor.<String, String>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName("kit.Probe", name))
        .setRequestMarshaller(UTF8)
        .setResponseMarshaller(UTF8)
        .build();
  }
}

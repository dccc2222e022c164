package io.github.affinitykit.disruptor.demo;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;

/**
 * One producer-to-consumer queue of {@code compare-queues}, as people write it: a blocking queue's
 * {@code put}/{@code take}, or Agrona's single-producer single-consumer queue polled with an idle
 * strategy on both ends. A consumer stops when its thread is interrupted.
 *
 * <p>Thread safety: {@link #put} from the one producer, {@link #take} from the one consumer.
 */
interface Lane {
  /** Hands {@code m} over, waiting while the queue is full. */
  void put(Message m) throws InterruptedException;

  /** Returns the next message, waiting while the queue is empty; throws when interrupted. */
  Message take() throws InterruptedException;

  /** Returns a lane of {@code capacity} for the queue contender {@code c}. */
  static Lane of(Contender c, int capacity) {
    return switch (c) {
      case ABQ -> blocking(new ArrayBlockingQueue<>(capacity));
      case LBQ -> blocking(new LinkedBlockingQueue<>(capacity));
      case AGRONA_SPIN -> polled(capacity, new BusySpinIdleStrategy(), new BusySpinIdleStrategy());
      case AGRONA_PARK -> polled(capacity, new BackoffIdleStrategy(), new BackoffIdleStrategy());
      default -> throw new IllegalArgumentException("contender: " + c + " (expected: a queue)");
    };
  }

  private static Lane blocking(BlockingQueue<Message> q) {
    return new Lane() {
      @Override
      public void put(Message m) throws InterruptedException {
        q.put(m);
      }

      @Override
      public Message take() throws InterruptedException {
        return q.take();
      }
    };
  }

  private static Lane polled(int capacity, IdleStrategy producer, IdleStrategy consumer) {
    OneToOneConcurrentArrayQueue<Message> q = new OneToOneConcurrentArrayQueue<>(capacity);
    return new Lane() {
      @Override
      public void put(Message m) {
        while (!q.offer(m)) {
          producer.idle();
        }
        producer.reset();
      }

      @Override
      public Message take() throws InterruptedException {
        Message m;
        while ((m = q.poll()) == null) {
          if (Thread.interrupted()) {
            throw new InterruptedException("consumer stopped");
          }
          consumer.idle();
        }
        consumer.reset();
        return m;
      }
    };
  }
}

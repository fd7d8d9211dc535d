import { Kafka, logLevel, Partitioners, type LogEntry, type Producer } from 'kafkajs';
import type { Logger } from '../logger.js';

function kafkaLog(logger: Logger) {
  return ({ level, namespace, log }: LogEntry) => {
    const { message, ...details } = log;
    const write = level === logLevel.ERROR || level === logLevel.WARN ? logger.warn.bind(logger) : logger.debug.bind(logger);
    write({ kafka: namespace, ...details }, message);
  };
}

/**
 * An idempotent producer: the broker drops a message the producer sends again after a lost
 * acknowledgement, and one request in flight keeps the messages of a partition in order.
 */
export function createKafkaProducer(brokers: string[], logger: Logger): Producer {
  const kafka = new Kafka({
    clientId: 'workspace-booking',
    brokers,
    logLevel: logLevel.WARN,
    logCreator: () => kafkaLog(logger),
    retry: { retries: 3 },
  });
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}

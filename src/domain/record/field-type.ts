/**
 * How a field is typed in JSON and compared in queries. object and string[] are stored as jsonb;
 * integer is a PostgreSQL integer (32 bits).
 */
export type FieldType = 'string' | 'uuid' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'object' | 'string[]';

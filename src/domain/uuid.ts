/** Whether `text` is a UUID in its canonical 8-4-4-4-12 hexadecimal form (either case). */
export const isUuid = (text: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);

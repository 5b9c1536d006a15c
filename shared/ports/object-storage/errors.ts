/** An S3 error's name (`NoSuchBucket`, `NotFound`…), read without loading S3's client. */
export const errorName = (err: unknown) => (err as { name?: string } | undefined)?.name;

declare module 'cluster-key-slot' {
  /** The Redis Cluster slot (0..16383) of a key, honouring its hash tag. */
  function calculateSlot(key: string | Buffer): number;
  namespace calculateSlot {
    /** The one slot of all the keys, or -1 when they are in more than one. */
    function generateMulti(keys: Array<string | Buffer>): number;
  }
  export = calculateSlot;
}

// empty: the Doks starter project slot for custom scripts

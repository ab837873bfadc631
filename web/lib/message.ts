/** Arco's Message (with its styles, via the build's per-component imports), behind a lazy import. */
import Message from '@arco-design/web-react/es/Message';

export { Message };

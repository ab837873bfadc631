/**
 * Arco Design's stylesheet, imported in this one place so it can later be replaced by a trimmed
 * build (only the components the console uses) without touching any component.
 */
import '@arco-design/web-react/dist/css/arco.min.css';

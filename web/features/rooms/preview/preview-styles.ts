import { makeStyles, tokens } from '@fluentui/react-components';

/** The viewers' shared frame: at most 70 % of the window high, scrolling inside. */
export const usePreviewStyles = makeStyles({
  frame: { maxHeight: '70vh', overflow: 'auto' },
  image: { maxWidth: '100%', maxHeight: '70vh', display: 'block', margin: '0 auto' },
  media: { width: '100%', maxHeight: '70vh', display: 'block' },
  mediaFrame: { width: '100%', height: '60vh', border: 'none', display: 'block' },
  audioFrame: { width: '100%', height: '64px', border: 'none', display: 'block' },
  text: {
    maxHeight: '70vh',
    overflow: 'auto',
    margin: 0,
    padding: '8px',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    backgroundColor: tokens.colorNeutralBackground3,
    fontFamily: tokens.fontFamilyMonospace,
  },
  page: { display: 'block', margin: '0 auto 8px', maxWidth: '100%', boxShadow: tokens.shadow4 },
  table: { borderCollapse: 'collapse', '& th, & td': { border: `1px solid ${tokens.colorNeutralStroke1}`, padding: '2px 6px', textAlign: 'left' } },
  editor: { width: '100%', minHeight: '50vh', fontFamily: tokens.fontFamilyMonospace },
});

import { createContext, useContext } from 'react'

// The site's style sheet, written into each document's head instead of linked from it: on a slow
// connection a linked sheet costs a round trip after the document before anything is painted
// (docs/decisions/071-styles-in-the-document.md). The server render gets the sheet's text through
// context (app/entry.server.tsx); in the browser the context is empty and React keeps the element
// the server wrote, which it finds by its `href` (React's own <style href precedence>).
const StylesContext = createContext('')
export const StylesProvider = StylesContext.Provider

export function SiteStyles() {
  return (
    <style href="site" precedence="site">
      {useContext(StylesContext)}
    </style>
  )
}

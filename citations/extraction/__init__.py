"""Text out of documents: reference lists from PDFs and from LaTeX source.

pdf_references reads a PDF's reference section; latex_references reads an arXiv source
package's bibliography, with source_package (reading the package safely), latex_text (LaTeX to
plain text), bbl_references and bib_references (the .bbl and the .bib lanes, the latter with
bibtex_reader) and reference_format (one reference string from bibliography fields).
paper_files stores what they read as a paper version's reference list (the ingest_pdf and
ingest_source commands, and their bulk jobs).
"""

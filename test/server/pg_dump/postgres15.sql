--
-- PostgreSQL database dump
--

\restrict lhWdThU7cRkE3LqKvpZbQbj4xgnweKZGT84chCsjrFgGuAi1WAF0v6M8D7EXTYa

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: audit; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.audit (
    id integer NOT NULL,
    w_id integer,
    amount numeric(12,2),
    note text,
    created timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT audit_amount_check CHECK ((amount <> (0)::numeric))
);


ALTER TABLE public.audit OWNER TO tester;

--
-- Name: audit_id_seq; Type: SEQUENCE; Schema: public; Owner: tester
--

CREATE SEQUENCE public.audit_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.audit_id_seq OWNER TO tester;

--
-- Name: audit_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: tester
--

ALTER SEQUENCE public.audit_id_seq OWNED BY public.audit.id;


--
-- Name: customer; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.customer (
    c_id integer NOT NULL,
    c_d_id integer NOT NULL,
    c_w_id integer NOT NULL,
    c_first character varying(16),
    c_middle character(2),
    c_last character varying(16),
    c_street_1 character varying(20),
    c_street_2 character varying(20),
    c_city character varying(20),
    c_state character(2),
    c_zip character(9),
    c_phone character(16),
    c_since timestamp without time zone,
    c_credit character(2),
    c_credit_lim numeric(12,2),
    c_discount numeric(4,4),
    c_balance numeric(12,2),
    c_ytd_payment numeric(12,2),
    c_payment_cnt integer,
    c_delivery_cnt integer,
    c_data character varying(500)
);


ALTER TABLE public.customer OWNER TO tester;

--
-- Name: customer_balance; Type: VIEW; Schema: public; Owner: tester
--

CREATE VIEW public.customer_balance AS
 SELECT customer.c_w_id,
    customer.c_d_id,
    customer.c_id,
    customer.c_balance
   FROM public.customer
  WHERE (customer.c_balance < (0)::numeric);


ALTER TABLE public.customer_balance OWNER TO tester;

--
-- Name: district; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.district (
    d_id integer NOT NULL,
    d_w_id integer NOT NULL,
    d_name character varying(10),
    d_street_1 character varying(20),
    d_street_2 character varying(20),
    d_city character varying(20),
    d_state character(2),
    d_zip character(9),
    d_tax numeric(4,4),
    d_ytd numeric(12,2),
    d_next_o_id integer
);


ALTER TABLE public.district OWNER TO tester;

--
-- Name: history; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.history (
    h_c_id integer,
    h_c_d_id integer,
    h_c_w_id integer,
    h_d_id integer,
    h_w_id integer,
    h_date timestamp without time zone,
    h_amount numeric(6,2),
    h_data character varying(24)
);


ALTER TABLE public.history OWNER TO tester;

--
-- Name: history_ids; Type: SEQUENCE; Schema: public; Owner: tester
--

CREATE SEQUENCE public.history_ids
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


ALTER TABLE public.history_ids OWNER TO tester;

--
-- Name: item; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.item (
    i_id integer NOT NULL,
    i_im_id integer,
    i_name character varying(24),
    i_price numeric(5,2),
    i_data character varying(50)
);


ALTER TABLE public.item OWNER TO tester;

--
-- Name: new_order; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.new_order (
    no_o_id integer NOT NULL,
    no_d_id integer NOT NULL,
    no_w_id integer NOT NULL
);


ALTER TABLE public.new_order OWNER TO tester;

--
-- Name: order_line; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.order_line (
    ol_o_id integer NOT NULL,
    ol_d_id integer NOT NULL,
    ol_w_id integer NOT NULL,
    ol_number integer NOT NULL,
    ol_i_id integer,
    ol_supply_w_id integer,
    ol_delivery_d timestamp without time zone,
    ol_quantity integer,
    ol_amount numeric(6,2),
    ol_dist_info character(24)
);


ALTER TABLE public.order_line OWNER TO tester;

--
-- Name: orders; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.orders (
    o_id integer NOT NULL,
    o_d_id integer NOT NULL,
    o_w_id integer NOT NULL,
    o_c_id integer,
    o_entry_d timestamp without time zone,
    o_carrier_id integer,
    o_ol_cnt integer,
    o_all_local integer
);


ALTER TABLE public.orders OWNER TO tester;

--
-- Name: stock; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.stock (
    s_i_id integer NOT NULL,
    s_w_id integer NOT NULL,
    s_quantity integer,
    s_dist_01 character(24),
    s_dist_02 character(24),
    s_dist_03 character(24),
    s_dist_04 character(24),
    s_dist_05 character(24),
    s_dist_06 character(24),
    s_dist_07 character(24),
    s_dist_08 character(24),
    s_dist_09 character(24),
    s_dist_10 character(24),
    s_ytd numeric(8,0),
    s_order_cnt integer,
    s_remote_cnt integer,
    s_data character varying(50)
);


ALTER TABLE public.stock OWNER TO tester;

--
-- Name: warehouse; Type: TABLE; Schema: public; Owner: tester
--

CREATE TABLE public.warehouse (
    w_id integer NOT NULL,
    w_name character varying(10),
    w_street_1 character varying(20),
    w_street_2 character varying(20),
    w_city character varying(20),
    w_state character(2),
    w_zip character(9),
    w_tax numeric(4,4),
    w_ytd numeric(12,2)
);


ALTER TABLE public.warehouse OWNER TO tester;

--
-- Name: audit id; Type: DEFAULT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.audit ALTER COLUMN id SET DEFAULT nextval('public.audit_id_seq'::regclass);


--
-- Data for Name: audit; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.audit (id, w_id, amount, note, created) FROM stdin;
1	1	5.25	first	2026-12-06 22:41:50.94088+00
2	2	-3.00	\N	2026-12-06 22:41:50.94088+00
3	1	-1.00	third	2026-12-06 22:41:50.94088+00
\.


--
-- Data for Name: customer; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) FROM stdin;
\.


--
-- Data for Name: district; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id) FROM stdin;
1	1	d1	s1	s2	c	NY	000000000	0.1000	30000.00	3001
2	1	d2		\N	c	NY	000000000	0.0001	-1.50	7
\.


--
-- Data for Name: history; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) FROM stdin;
\.


--
-- Data for Name: item; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.item (i_id, i_im_id, i_name, i_price, i_data) FROM stdin;
1	10	widget	12.50	ORIGINAL data
2	20	gadget	0.99	\\N
\.


--
-- Data for Name: new_order; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.new_order (no_o_id, no_d_id, no_w_id) FROM stdin;
\.


--
-- Data for Name: order_line; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) FROM stdin;
\.


--
-- Data for Name: orders; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) FROM stdin;
\.


--
-- Data for Name: stock; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) FROM stdin;
\.


--
-- Data for Name: warehouse; Type: TABLE DATA; Schema: public; Owner: tester
--

COPY public.warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd) FROM stdin;
1	w1	a'b	tab\there	city	NY	123456789	0.0825	300000.00
2	\N	line\nbreak	back\\slash	\N	\N	\N	\N	\N
\.


--
-- Name: audit_id_seq; Type: SEQUENCE SET; Schema: public; Owner: tester
--

SELECT pg_catalog.setval('public.audit_id_seq', 3, true);


--
-- Name: history_ids; Type: SEQUENCE SET; Schema: public; Owner: tester
--

SELECT pg_catalog.setval('public.history_ids', 3, true);


--
-- Name: audit audit_note_key; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_note_key UNIQUE (note);


--
-- Name: audit audit_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_pkey PRIMARY KEY (id);


--
-- Name: customer customer_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.customer
    ADD CONSTRAINT customer_pkey PRIMARY KEY (c_w_id, c_d_id, c_id);


--
-- Name: district district_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.district
    ADD CONSTRAINT district_pkey PRIMARY KEY (d_w_id, d_id);


--
-- Name: item item_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.item
    ADD CONSTRAINT item_pkey PRIMARY KEY (i_id);


--
-- Name: new_order new_order_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.new_order
    ADD CONSTRAINT new_order_pkey PRIMARY KEY (no_w_id, no_d_id, no_o_id);


--
-- Name: order_line order_line_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.order_line
    ADD CONSTRAINT order_line_pkey PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);


--
-- Name: orders orders_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (o_w_id, o_d_id, o_id);


--
-- Name: stock stock_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_pkey PRIMARY KEY (s_w_id, s_i_id);


--
-- Name: warehouse warehouse_pkey; Type: CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.warehouse
    ADD CONSTRAINT warehouse_pkey PRIMARY KEY (w_id);


--
-- Name: audit_open; Type: INDEX; Schema: public; Owner: tester
--

CREATE UNIQUE INDEX audit_open ON public.audit USING btree (w_id) WHERE (amount > (0)::numeric);


--
-- Name: customer_by_name; Type: INDEX; Schema: public; Owner: tester
--

CREATE INDEX customer_by_name ON public.customer USING btree (c_w_id, c_d_id, c_last, c_first);


--
-- Name: orders_by_customer; Type: INDEX; Schema: public; Owner: tester
--

CREATE INDEX orders_by_customer ON public.orders USING btree (o_w_id, o_d_id, o_c_id, o_id);


--
-- Name: audit audit_w_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.audit
    ADD CONSTRAINT audit_w_id_fkey FOREIGN KEY (w_id) REFERENCES public.warehouse(w_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED;


--
-- Name: customer customer_c_w_id_c_d_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.customer
    ADD CONSTRAINT customer_c_w_id_c_d_id_fkey FOREIGN KEY (c_w_id, c_d_id) REFERENCES public.district(d_w_id, d_id);


--
-- Name: district district_d_w_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.district
    ADD CONSTRAINT district_d_w_id_fkey FOREIGN KEY (d_w_id) REFERENCES public.warehouse(w_id);


--
-- Name: history history_h_c_w_id_h_c_d_id_h_c_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_h_c_w_id_h_c_d_id_h_c_id_fkey FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) REFERENCES public.customer(c_w_id, c_d_id, c_id);


--
-- Name: history history_h_w_id_h_d_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_h_w_id_h_d_id_fkey FOREIGN KEY (h_w_id, h_d_id) REFERENCES public.district(d_w_id, d_id);


--
-- Name: new_order new_order_no_w_id_no_d_id_no_o_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.new_order
    ADD CONSTRAINT new_order_no_w_id_no_d_id_no_o_id_fkey FOREIGN KEY (no_w_id, no_d_id, no_o_id) REFERENCES public.orders(o_w_id, o_d_id, o_id);


--
-- Name: order_line order_line_ol_supply_w_id_ol_i_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.order_line
    ADD CONSTRAINT order_line_ol_supply_w_id_ol_i_id_fkey FOREIGN KEY (ol_supply_w_id, ol_i_id) REFERENCES public.stock(s_w_id, s_i_id);


--
-- Name: order_line order_line_ol_w_id_ol_d_id_ol_o_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.order_line
    ADD CONSTRAINT order_line_ol_w_id_ol_d_id_ol_o_id_fkey FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES public.orders(o_w_id, o_d_id, o_id);


--
-- Name: orders orders_o_w_id_o_d_id_o_c_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.orders
    ADD CONSTRAINT orders_o_w_id_o_d_id_o_c_id_fkey FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES public.customer(c_w_id, c_d_id, c_id);


--
-- Name: stock stock_s_i_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_s_i_id_fkey FOREIGN KEY (s_i_id) REFERENCES public.item(i_id);


--
-- Name: stock stock_s_w_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: tester
--

ALTER TABLE ONLY public.stock
    ADD CONSTRAINT stock_s_w_id_fkey FOREIGN KEY (s_w_id) REFERENCES public.warehouse(w_id);


--
-- PostgreSQL database dump complete
--

\unrestrict lhWdThU7cRkE3LqKvpZbQbj4xgnweKZGT84chCsjrFgGuAi1WAF0v6M8D7EXTYa

